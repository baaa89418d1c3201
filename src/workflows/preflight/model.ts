/** A read-only view of a workflow's jobs and steps for the preflight: plain values, matrices expanded. */
import { parse, stringify } from 'yaml';
import { expandMatrix, type Combination, type MatrixModel } from '../matrix/expand.js';

export type Obj = Record<string, unknown>;

export const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);
export const objAt = (value: unknown): Obj => (isObj(value) ? value : {});
export const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;

export interface StepView {
  raw: Obj;
  /** The step's name as GitHub shows it. */
  display: string;
}

export interface JobView {
  /** The id reported in blockers (`caller/callee` for a called workflow's job). */
  id: string;
  raw: Obj;
  /** The matrix configurations the job runs (one empty configuration without a matrix). */
  combos: Combination[];
  /** The `env` and `defaults` of the workflow file the job belongs to. */
  workflow: { env: Obj; defaults: Obj };
  steps: StepView[];
}

/** The workflow as plain values, or null when it is not a YAML mapping with jobs. */
export function parsePlain(text: string): Obj | null {
  try {
    const doc: unknown = parse(text);
    return isObj(doc) && isObj(doc.jobs) ? doc : null;
  } catch {
    return null;
  }
}

/** A value as it reads in YAML, on one line (`[self-hosted, gpu]`, `postgres:14`). */
export function yamlValue(value: unknown): string {
  if (typeof value === 'string') return value;
  return stringify(value, { collectionStyle: 'flow', flowCollectionPadding: false, lineWidth: 0 }).trim();
}

function stepDisplay(step: Obj): string {
  const name = textOf(step.name);
  if (name !== undefined) return name;
  const uses = textOf(step.uses);
  if (uses !== undefined) return `Run ${uses}`;
  const first = (textOf(step.run) ?? '').split('\n').find((line) => line.trim() !== '') ?? '';
  return `Run ${first.trim()}`;
}

/** The configurations of a job's matrix; keys computed at run time are left out (they cannot be resolved). */
export function matrixCombos(job: Obj): Combination[] {
  const matrix = objAt(job.strategy).matrix;
  if (!isObj(matrix)) return [{}];
  const model: MatrixModel = { keys: [], values: new Map(), include: [], exclude: [] };
  for (const [key, value] of Object.entries(matrix)) {
    if (key === 'include' || key === 'exclude') {
      const entries = Array.isArray(value) ? value.filter(isObj) : [];
      if (key === 'include') model.include = entries;
      else model.exclude = entries;
      continue;
    }
    if (typeof value === 'string' && value.includes('${{')) continue;
    model.keys.push(key);
    model.values.set(key, Array.isArray(value) ? value : [value]);
  }
  const combos = expandMatrix(model).map((combo) => combo.values);
  return combos.length === 0 ? [{}] : combos.slice(0, 256);
}

/** The jobs of a workflow document, ids prefixed with `prefix` (a caller job's id and `/`). */
export function jobViews(doc: Obj, prefix = ''): JobView[] {
  const workflow = { env: objAt(doc.env), defaults: objAt(doc.defaults) };
  return Object.entries(objAt(doc.jobs)).flatMap(([key, value]) => {
    if (!isObj(value)) return [];
    const steps = Array.isArray(value.steps) ? value.steps.filter(isObj).map((raw) => ({ raw, display: stepDisplay(raw) })) : [];
    return [{ id: `${prefix}${key}`, raw: value, combos: matrixCombos(value), workflow, steps }];
  });
}
