import { invalidInput } from '../errors.js';
import type { ContextValue } from './expressions.js';

export type MatrixCombo = Record<string, ContextValue>;

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function matches(combo: MatrixCombo, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([k, v]) => JSON.stringify(combo[k]) === JSON.stringify(v));
}

/**
 * Expands `strategy.matrix` like GitHub: the cross product of the array-valued keys, minus `exclude`
 * entries, then `include` entries extend matching combinations (without overwriting original values)
 * or are added as new combinations. Returns null when the job has no matrix.
 */
export function expandMatrix(matrix: unknown, jobKey: string): MatrixCombo[] | null {
  if (matrix === undefined || matrix === null) return null;
  if (!isObj(matrix)) throw invalidInput('invalid_workflow', `jobs.${jobKey}.strategy.matrix must be a mapping`);
  const dims = Object.entries(matrix).filter(([k]) => k !== 'include' && k !== 'exclude');
  let combos: MatrixCombo[] = dims.length === 0 ? [] : [{}];
  for (const [key, values] of dims) {
    if (!Array.isArray(values)) throw invalidInput('invalid_workflow', `jobs.${jobKey}.strategy.matrix.${key} must be a list`);
    combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v as ContextValue })));
  }
  const exclude = Array.isArray(matrix.exclude) ? matrix.exclude.filter(isObj) : [];
  combos = combos.filter((c) => !exclude.some((e) => matches(c, e)));
  const originalKeys = new Set(dims.map(([k]) => k));
  const include = Array.isArray(matrix.include) ? matrix.include.filter(isObj) : [];
  for (const entry of include) {
    const original = Object.fromEntries(Object.entries(entry).filter(([k]) => originalKeys.has(k)));
    const targets = combos.filter((c) => matches(c, original));
    const added = Object.entries(entry).filter(([k]) => !originalKeys.has(k));
    if (targets.length === 0 || Object.keys(original).length === 0 && combos.length === 0) {
      combos.push({ ...(entry as MatrixCombo) });
      continue;
    }
    for (const target of targets) {
      for (const [k, v] of added) target[k] = v as ContextValue;
    }
  }
  if (combos.length > 256) throw invalidInput('invalid_workflow', `jobs.${jobKey} matrix has more than 256 combinations`);
  return combos;
}

function display(value: ContextValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** GitHub's job name: the key (or name) followed by the matrix values in parentheses. */
export function matrixJobName(base: string, combo: MatrixCombo | null, nameUsesMatrix: boolean): string {
  if (combo === null || nameUsesMatrix) return base;
  const values = Object.values(combo).map(display);
  return values.length === 0 ? base : `${base} (${values.join(', ')})`;
}
