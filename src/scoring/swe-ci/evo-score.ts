import { invalidInput } from '../../errors.js';
import { exactSum } from '../stats/exact-sum.js';
import { normalizedChange } from './normalized-change.js';
import { paddedCounts, SWE_CI_ROUNDS, type SweCiRound } from './rounds.js';

/** Options of {@link evoScore}. */
export interface EvoScoreOptions {
  /** Weight base γ; round i weighs γ^i. The published code uses 1 (the plain mean). */
  gamma?: number;
  /** Length N the round sequence is padded to (default 20). */
  n?: number;
}

/**
 * SWE-CI EvoScore: Σ γ^i·a_i / Σ γ^i over i = 1..N, where a_i is the normalized change of round i's
 * count clipped to [0, p*], the sequence being padded to N with its last value (p0 without rounds).
 * Invalid rounds (`null`) count as 0 passed. Always within [−1, 1].
 *
 * Floating point: with γ = 1 and integer counts the mean is a ratio of integers, computed with a single
 * division, so the result is the double nearest the exact value (0.88, 0.29, 0.8333333333333334 for the
 * published vectors). Otherwise both sums are correctly rounded (see {@link exactSum}).
 * @example evoScore([12, 15, 9, 20], 10, 20) // 0.88
 */
export function evoScore(rounds: readonly SweCiRound[], p0: number, pStar: number, options: EvoScoreOptions = {}): number {
  const gamma = options.gamma ?? 1;
  const n = options.n ?? SWE_CI_ROUNDS;
  validate(p0, pStar, gamma, n);
  const counts = paddedCounts(rounds, p0, pStar, n);
  if (gamma === 1) {
    const exact = exactMeanChange(counts, p0, pStar);
    if (exact !== undefined) return exact;
  }
  const weights = counts.map((_, index) => gamma ** (index + 1));
  const weighted = counts.map((count, index) => (weights[index] ?? 0) * normalizedChange(count, p0, pStar));
  return exactSum(weighted) / exactSum(weights);
}

/**
 * Mean normalized change as one integer ratio: Σ_up (p − p0)/(p* − p0) + Σ_down (p − p0)/p0, over N,
 * brought to the common denominator N·p0·(p* − p0). Undefined when an operand is not a safe integer.
 */
function exactMeanChange(counts: readonly number[], p0: number, pStar: number): number | undefined {
  const gap = pStar - p0;
  let up = 0;
  let down = 0;
  for (const count of counts) {
    if (count > p0) up += count - p0;
    if (count < p0) down += count - p0;
  }
  const upDenominator = gap === 0 ? 1 : gap;
  const downDenominator = p0 === 0 ? 1 : p0;
  const numerator = up * downDenominator + down * upDenominator;
  const denominator = counts.length * upDenominator * downDenominator;
  const operands = [p0, pStar, up, down, numerator, denominator];
  if (!operands.every((value) => Number.isSafeInteger(value))) return undefined;
  return numerator / denominator;
}

function validate(p0: number, pStar: number, gamma: number, n: number): void {
  if (!(p0 >= 0) || !(pStar >= p0)) {
    throw invalidInput('invalid_swe_ci_counts', 'SWE-CI needs 0 ≤ p0 ≤ p*', { p0, pStar });
  }
  if (!(gamma > 0) || !Number.isFinite(gamma)) throw invalidInput('invalid_gamma', 'gamma must be positive', { gamma });
  if (!Number.isInteger(n) || n < 1) throw invalidInput('invalid_round_count', 'n must be a positive integer', { n });
}
