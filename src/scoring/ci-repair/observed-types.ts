import { ERROR_TYPES, type ErrorType } from '../../domain/error-types.js';
import type { RunOutcomes } from './run-outcomes.js';
import type { CiInstance } from './types.js';

/** A count per observed error type, most frequent first, zero counts omitted. */
export type TypeCounts = { type: ErrorType; count: number }[];

/** Observed failure types of one run's failed submissions (latest per in-scope instance, verdict `failed`). */
export interface ObservedTypes {
  runId: string;
  failedSubmissions: number;
  /** Failed submissions with no observed type. */
  unlabelled: number;
  /** For each type: failed submissions where it was observed (a submission counts once per type). */
  distribution: TypeCounts;
  /** Instance label → observed types, over the failed submissions of instances carrying that label. */
  transitions: { label: ErrorType; failed: number; unlabelled: number; observed: TypeCounts }[];
}

function sorted(counts: Map<ErrorType, number>): TypeCounts {
  return [...counts]
    .filter(([, count]) => count > 0)
    .map(([type, count]) => ({ type, count }))
    .sort((a, b) => b.count - a.count || ERROR_TYPES.indexOf(a.type) - ERROR_TYPES.indexOf(b.type));
}

const bump = <K>(map: Map<K, number>, key: K): void => {
  map.set(key, (map.get(key) ?? 0) + 1);
};

/** Distribution of observed failure types and the label → observed transition table of one run. */
export function observedTypes(instances: readonly CiInstance[], run: RunOutcomes): ObservedTypes {
  const distribution = new Map<ErrorType, number>();
  const transitions = new Map<ErrorType, { failed: number; unlabelled: number; observed: Map<ErrorType, number> }>();
  let failedSubmissions = 0;
  let unlabelled = 0;
  instances.forEach((instance, index) => {
    const result = run.results[index];
    if (result?.outcome !== 'failed') return;
    failedSubmissions += 1;
    const observed = [...new Set(result.submission?.observedLabels ?? [])];
    if (observed.length === 0) unlabelled += 1;
    for (const type of observed) bump(distribution, type);
    for (const label of new Set(instance.labels)) {
      const row = transitions.get(label) ?? { failed: 0, unlabelled: 0, observed: new Map<ErrorType, number>() };
      row.failed += 1;
      if (observed.length === 0) row.unlabelled += 1;
      for (const type of observed) bump(row.observed, type);
      transitions.set(label, row);
    }
  });
  return {
    runId: run.id,
    failedSubmissions,
    unlabelled,
    distribution: sorted(distribution),
    transitions: ERROR_TYPES.flatMap((label) => {
      const row = transitions.get(label);
      return row === undefined ? [] : [{ label, failed: row.failed, unlabelled: row.unlabelled, observed: sorted(row.observed) }];
    }),
  };
}
