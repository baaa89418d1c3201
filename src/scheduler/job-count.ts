import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { expandMatrix, type Combination, type MatrixModel } from '../workflows/matrix/index.js';
import { concurrentWidth, type JobNode } from './job-width.js';

export interface JobCount {
  /** Jobs the workflow starts (matrix expanded); what the submission holds of its account's concurrent-job limit. */
  jobs: number;
  /** Jobs whose count could not be known before the run (matrix built at run time, reusable workflow calls): counted as 1 each. */
  unknown: string[];
  /**
   * The most of them GitHub can have queued or running at once: `needs:` chains and a matrix's `max-parallel`
   * respected (job-width.ts). What the scheduler reserves; `jobs` when anything is unknown.
   */
  concurrent: number;
}

const plain = (node: unknown): unknown => (isMap(node) || isSeq(node) || isScalar(node) ? node.toJSON() : node);

/** Legs of one job's matrix (GitHub's expansion: product, minus exclude, plus include), capped at 256 as GitHub does. */
function matrixLegs(matrix: unknown): number | null {
  if (typeof matrix !== 'object' || matrix === null || Array.isArray(matrix)) return null;
  const model: MatrixModel = { keys: [], values: new Map(), include: [], exclude: [] };
  for (const [key, value] of Object.entries(matrix as Record<string, unknown>)) {
    if (typeof value === 'string' && value.includes('${{')) return null;
    const entries = Array.isArray(value) ? value.filter((entry): entry is Combination => typeof entry === 'object' && entry !== null) : [];
    if (key === 'include') model.include = entries;
    else if (key === 'exclude') model.exclude = entries;
    else {
      model.keys.push(key);
      model.values.set(key, Array.isArray(value) ? value : [value]);
    }
  }
  return Math.min(256, Math.max(1, expandMatrix(model).length));
}

/**
 * How many jobs a (standardized) workflow starts: one per job, a matrix job one per leg. Jobs held back by `if:`
 * or `needs` still count: the scheduler reserves for the whole run, never beyond the limit. An unreadable workflow
 * counts as one job (the run then fails on GitHub the same way).
 */
export function countWorkflowJobs(text: string): JobCount {
  const doc = parseDocument(text, { uniqueKeys: false });
  const jobs = plain(isMap(doc.contents) ? doc.contents.get('jobs', true) : undefined);
  if (typeof jobs !== 'object' || jobs === null || Array.isArray(jobs)) return { jobs: 1, unknown: ['jobs'], concurrent: 1 };
  let total = 0;
  const unknown: string[] = [];
  const nodes: JobNode[] = [];
  for (const [id, job] of Object.entries(jobs as Record<string, unknown>)) {
    const body = (typeof job === 'object' && job !== null ? job : {}) as Record<string, unknown>;
    if (typeof body.uses === 'string') unknown.push(`jobs.${id}.uses`);
    const needs = typeof body.needs === 'string' ? [body.needs] : Array.isArray(body.needs) ? body.needs.map(String) : [];
    const strategy = body.strategy as Record<string, unknown> | undefined;
    if (strategy === undefined || strategy.matrix === undefined) {
      total += 1;
      nodes.push({ id, legs: 1, needs });
      continue;
    }
    const legs = matrixLegs(strategy.matrix);
    if (legs === null) {
      unknown.push(`jobs.${id}.strategy.matrix`);
      total += 1;
      nodes.push({ id, legs: 1, needs });
      continue;
    }
    total += legs;
    const maxParallel = typeof strategy['max-parallel'] === 'number' && strategy['max-parallel'] >= 1 ? Math.floor(strategy['max-parallel']) : legs;
    nodes.push({ id, legs: Math.min(legs, maxParallel), needs });
  }
  const all = Math.max(1, total);
  return { jobs: all, unknown, concurrent: unknown.length > 0 ? all : Math.min(all, concurrentWidth(nodes)) };
}
