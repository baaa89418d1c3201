import { parseDocument, stringify } from 'yaml';
import type { CiConclusion } from '../../../../src/domain/ci-events.js';

/** A job of the attempt being re-run, with its `jobs.<key>` key when the runner reported it. */
export interface PreviousJob {
  id: number;
  key: string | null;
  conclusion: CiConclusion | null;
}

export interface FailedJobsRerunPlan {
  /** The workflow with the carried-over jobs removed and `needs` on them dropped. */
  text: string;
  /** Jobs of the previous attempt that the new attempt lists with their old results. */
  carriedJobIds: number[];
  /** Job keys that run again. */
  rerunKeys: string[];
}

const CARRIED = new Set<CiConclusion | null>(['success', 'skipped']);

function needsOf(job: unknown): string[] {
  const needs = job && typeof job === 'object' ? (job as Record<string, unknown>).needs : undefined;
  if (needs === undefined || needs === null) return [];
  return Array.isArray(needs) ? needs.map(String) : [String(needs)];
}

/** Keys whose `needs` context a job reads (`needs.x…`, `needs['x']`): outputs and results of carried jobs are not replayed. */
function referencedNeeds(job: unknown, keys: string[]): string[] {
  const text = stringify(job);
  return keys.filter((key) => {
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`needs\\s*(\\.\\s*${escaped}(?![\\w-])|\\[\\s*['"]${escaped}['"]\\s*\\])`).test(text);
  });
}

/**
 * What `rerun-failed-jobs` runs: the jobs whose previous attempt did not succeed (failure, cancelled, timed out, or
 * never started), every job that needs them (transitively), and — since the executor cannot replay a carried job's
 * outputs — every job whose `needs` context a re-run job reads, with its own chain. Returns null when every job runs
 * again (or the jobs cannot be told apart by key), i.e. a plain re-run of the whole workflow.
 */
export function planFailedJobsRerun(text: string, previous: PreviousJob[]): FailedJobsRerunPlan | null {
  if (previous.length === 0 || previous.some((job) => job.key === null)) return null;
  const doc = parseDocument(text);
  const root: unknown = doc.toJS();
  const jobs = root && typeof root === 'object' ? (root as Record<string, unknown>).jobs : undefined;
  if (!jobs || typeof jobs !== 'object') return null;
  const defs = jobs as Record<string, unknown>;
  const keys = Object.keys(defs);
  const rerun = new Set(keys.filter((key) => {
    const legs = previous.filter((job) => job.key === key);
    return legs.length === 0 || legs.some((job) => !CARRIED.has(job.conclusion));
  }));
  for (let changed = true; changed;) {
    changed = false;
    for (const key of keys) {
      const pulled = rerun.has(key) ? referencedNeeds(defs[key], needsOf(defs[key])) : [];
      const dependant = !rerun.has(key) && needsOf(defs[key]).some((need) => rerun.has(need));
      for (const add of dependant ? [key] : pulled.filter((need) => !rerun.has(need) && need in defs)) {
        rerun.add(add);
        changed = true;
      }
    }
  }
  if (rerun.size === keys.length || rerun.size === 0) return null;
  for (const key of keys) {
    if (!rerun.has(key)) {
      doc.deleteIn(['jobs', key]);
      continue;
    }
    const needs = needsOf(defs[key]);
    const kept = needs.filter((need) => rerun.has(need));
    if (kept.length === needs.length) continue;
    if (kept.length === 0) doc.deleteIn(['jobs', key, 'needs']);
    else doc.setIn(['jobs', key, 'needs'], kept);
  }
  const carriedJobIds = previous.filter((job) => job.key !== null && !rerun.has(job.key)).map((job) => job.id);
  return { text: doc.toString(), carriedJobIds, rerunKeys: keys.filter((key) => rerun.has(key)) };
}
