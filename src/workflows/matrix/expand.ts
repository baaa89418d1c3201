/** GitHub Actions matrix expansion (product, exclude, include) on plain values. */

export type Combination = Record<string, unknown>;

export interface MatrixModel {
  /** Base keys in declaration order. */
  keys: string[];
  values: Map<string, unknown[]>;
  include: Combination[];
  exclude: Combination[];
}

export interface ExpandedCombination {
  values: Combination;
  /** Whether the combination comes from the product of the base keys (not from an include entry alone). */
  fromProduct: boolean;
  /** Indexes of the include entries applied to it (that extend it or created it). */
  includes: number[];
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function product(model: MatrixModel): Combination[] {
  let combos: Combination[] = model.keys.length === 0 ? [] : [{}];
  for (const key of model.keys) {
    const values = model.values.get(key) ?? [];
    combos = combos.flatMap((combo) => values.map((value) => ({ ...combo, [key]: value })));
  }
  return combos;
}

/** Expands a matrix the way GitHub does: product of the base keys, minus excludes, plus includes. */
export function expandMatrix(model: MatrixModel): ExpandedCombination[] {
  const base = product(model).filter(
    (combo) => !model.exclude.some((entry) => Object.entries(entry).every(([key, value]) => sameValue(combo[key], value))),
  );
  const expanded: ExpandedCombination[] = base.map((values) => ({ values, fromProduct: true, includes: [] }));
  const originals = base.map((values) => ({ ...values }));
  model.include.forEach((entry, index) => {
    let applied = false;
    expanded.forEach((combo, comboIndex) => {
      if (!combo.fromProduct) return;
      const original = originals[comboIndex] ?? {};
      const matches = Object.entries(entry).every(([key, value]) => !(key in original) || sameValue(original[key], value));
      if (!matches) return;
      combo.values = { ...combo.values, ...entry };
      combo.includes.push(index);
      applied = true;
    });
    if (!applied) expanded.push({ values: { ...entry }, fromProduct: false, includes: [index] });
  });
  return expanded;
}

/** A value as GitHub prints it in a job name. */
export function displayValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}
