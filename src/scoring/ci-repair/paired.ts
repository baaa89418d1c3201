import { invalidInput } from '../../errors.js';
import { mcnemarTest, MCNEMAR_EXACT_BELOW, type McNemarResult } from '../stats/mcnemar.js';
import type { RunOutcomes } from './run-outcomes.js';

/** Paired comparison of two runs over the same in-scope instances. */
export interface PairedComparison {
  runA: string;
  runB: string;
  instances: number;
  bothPassed: number;
  onlyA: number;
  onlyB: number;
  neither: number;
  /** McNemar's test on onlyA / onlyB: exact binomial below `exactBelow` discordant pairs, else chi-square with continuity correction. */
  mcnemar: McNemarResult;
}

/** Compares two runs resolved against the same scope (same instances, same order). */
export function compareRuns(a: RunOutcomes, b: RunOutcomes, exactBelow = MCNEMAR_EXACT_BELOW): PairedComparison {
  if (a.results.length !== b.results.length) {
    throw invalidInput('scope_mismatch', 'paired comparison needs both runs over the same instances', {
      runA: a.id,
      runB: b.id,
    });
  }
  const counts = { bothPassed: 0, onlyA: 0, onlyB: 0, neither: 0 };
  a.results.forEach((result, index) => {
    const passedA = result.outcome === 'passed';
    const passedB = b.results[index]?.outcome === 'passed';
    if (passedA && passedB) counts.bothPassed += 1;
    else if (passedA) counts.onlyA += 1;
    else if (passedB) counts.onlyB += 1;
    else counts.neither += 1;
  });
  return { runA: a.id, runB: b.id, instances: a.results.length, ...counts, mcnemar: mcnemarTest(counts.onlyA, counts.onlyB, exactBelow) };
}
