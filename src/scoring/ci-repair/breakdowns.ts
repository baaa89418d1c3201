import { ERROR_TYPES, type ErrorType } from '../../domain/error-types.js';
import { rate, type Rate } from '../stats/rate.js';
import type { RunOutcomes } from './run-outcomes.js';
import type { CiInstance } from './types.js';

/** Table 7 row: an error type, its occurrences, and per run the repaired count and rate. */
export interface TypeRow {
  type: ErrorType;
  occurrences: number;
  /** One per run, in run order: repaired instances carrying the type / occurrences. */
  runs: Rate[];
}

/** Table 8 row: a repository, its instances, and per run the repaired count and rate. */
export interface RepoRow {
  repo: string;
  instances: number;
  runs: Rate[];
}

/**
 * Per error type (all 12, most occurrences first, ties in canonical order): an instance counts once in
 * every type it carries (duplicate labels on one instance count once).
 */
export function byErrorType(instances: readonly CiInstance[], runs: readonly RunOutcomes[], confidence = 0.95): TypeRow[] {
  const occurrences = new Map<ErrorType, number>(ERROR_TYPES.map((type) => [type, 0]));
  const repaired = runs.map(() => new Map<ErrorType, number>(ERROR_TYPES.map((type) => [type, 0])));
  instances.forEach((instance, index) => {
    for (const type of new Set(instance.labels)) {
      occurrences.set(type, (occurrences.get(type) ?? 0) + 1);
      runs.forEach((run, r) => {
        if (run.results[index]?.outcome !== 'passed') return;
        const counts = repaired[r];
        counts?.set(type, (counts.get(type) ?? 0) + 1);
      });
    }
  });
  return ERROR_TYPES.map((type) => {
    const total = occurrences.get(type) ?? 0;
    return { type, occurrences: total, runs: repaired.map((counts) => rate(counts.get(type) ?? 0, total, confidence)) };
  }).sort((a, b) => b.occurrences - a.occurrences || ERROR_TYPES.indexOf(a.type) - ERROR_TYPES.indexOf(b.type));
}

/** Per repository (most instances first, then by name). */
export function byRepository(instances: readonly CiInstance[], runs: readonly RunOutcomes[], confidence = 0.95): RepoRow[] {
  const rows = new Map<string, { instances: number; repaired: number[] }>();
  instances.forEach((instance, index) => {
    const row = rows.get(instance.repo) ?? { instances: 0, repaired: runs.map(() => 0) };
    row.instances += 1;
    runs.forEach((run, r) => {
      if (run.results[index]?.outcome === 'passed') row.repaired[r] = (row.repaired[r] ?? 0) + 1;
    });
    rows.set(instance.repo, row);
  });
  return [...rows]
    .map(([repo, row]) => ({ repo, instances: row.instances, runs: row.repaired.map((count) => rate(count, row.instances, confidence)) }))
    .sort((a, b) => b.instances - a.instances || a.repo.localeCompare(b.repo));
}
