import { wilsonInterval } from './wilson.js';

/** A count out of a total, as a percentage with its Wilson score interval (also in percent). */
export interface Rate {
  count: number;
  total: number;
  /** count / total × 100; null when total is 0. */
  percent: number | null;
  /** Wilson score interval in percent at the report's confidence; null when total is 0. */
  ci: { lower: number; upper: number } | null;
}

/** Builds a {@link Rate}: percent = count / total × 100, computed in that order. */
export function rate(count: number, total: number, confidence = 0.95): Rate {
  const interval = wilsonInterval(count, total, confidence);
  return {
    count,
    total,
    percent: total === 0 ? null : (count / total) * 100,
    ci: interval === null ? null : { lower: interval.lower * 100, upper: interval.upper * 100 },
  };
}
