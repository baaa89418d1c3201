import { invalidInput } from '../../errors.js';
import { normalQuantile } from './normal-quantile.js';

/** A two-sided confidence interval on a proportion, as fractions in [0, 1]. */
export interface Interval {
  lower: number;
  upper: number;
}

/**
 * Wilson score interval for `successes` out of `total` at the given two-sided confidence (default 0.95,
 * z = 1.959963984540054). Returns `null` when `total` is 0 (no information).
 */
export function wilsonInterval(successes: number, total: number, confidence = 0.95): Interval | null {
  if (!Number.isInteger(successes) || !Number.isInteger(total) || successes < 0 || successes > total) {
    throw invalidInput('invalid_proportion', 'successes must be an integer between 0 and total', { successes, total });
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw invalidInput('invalid_confidence', 'confidence must lie strictly between 0 and 1', { confidence });
  }
  if (total === 0) return null;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const z2 = z * z;
  const p = successes / total;
  const denominator = 1 + z2 / total;
  const centre = (p + z2 / (2 * total)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total))) / denominator;
  return {
    lower: successes === 0 ? 0 : Math.max(0, centre - half),
    upper: successes === total ? 1 : Math.min(1, centre + half),
  };
}
