import { invalidInput } from '../../errors.js';
import { chiSquareSurvival, logGamma } from './gamma.js';

/** Which McNemar variant produced a p-value. */
export type McNemarMethod = 'exact_binomial' | 'chi_square_continuity' | 'none';

/** Result of McNemar's test on the discordant counts of a paired comparison. */
export interface McNemarResult {
  method: McNemarMethod;
  /** Chi-square statistic with continuity correction, (|b − c| − 1)² / (b + c); null for the exact test. */
  statistic: number | null;
  /** Two-sided p-value; 1 when there are no discordant pairs. */
  pValue: number;
}

/** Discordant-pair count below which the exact binomial test is used (the usual rule: b + c < 25). */
export const MCNEMAR_EXACT_BELOW = 25;

const logChoose = (n: number, k: number): number => logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);

/**
 * McNemar's test for `onlyA` (b) and `onlyB` (c) discordant pairs.
 * - b + c = 0: no evidence either way, p = 1, method `none`.
 * - b + c < `exactBelow` (default 25): exact two-sided binomial test,
 *   p = min(1, 2 · Σ_{k ≤ min(b,c)} C(b+c, k) / 2^(b+c)).
 * - otherwise: chi-square with one degree of freedom and Edwards' continuity correction,
 *   χ² = (|b − c| − 1)² / (b + c).
 */
export function mcnemarTest(onlyA: number, onlyB: number, exactBelow = MCNEMAR_EXACT_BELOW): McNemarResult {
  if (!Number.isInteger(onlyA) || !Number.isInteger(onlyB) || onlyA < 0 || onlyB < 0) {
    throw invalidInput('invalid_counts', 'discordant counts must be non-negative integers', { onlyA, onlyB });
  }
  const n = onlyA + onlyB;
  if (n === 0) return { method: 'none', statistic: null, pValue: 1 };
  if (n < exactBelow) {
    const k = Math.min(onlyA, onlyB);
    return { method: 'exact_binomial', statistic: null, pValue: Math.min(1, 2 * binomialLowerTail(n, k)) };
  }
  const diff = Math.max(0, Math.abs(onlyA - onlyB) - 1);
  const statistic = (diff * diff) / n;
  return { method: 'chi_square_continuity', statistic, pValue: Math.min(1, chiSquareSurvival(statistic, 1)) };
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2); exact coefficients while they fit a double, log space beyond. */
function binomialLowerTail(n: number, k: number): number {
  let tail = 0;
  if (n <= 1000) {
    let coefficient = 1;
    for (let i = 0; i <= k; i += 1) {
      tail += coefficient;
      coefficient = (coefficient * (n - i)) / (i + 1);
    }
    return tail * 2 ** -n;
  }
  for (let i = 0; i <= k; i += 1) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return tail;
}
