import type { Rate } from '../stats/rate.js';

/** A number with fixed decimals ("0.880", "-0.100"), or "–" when undefined. */
export const decimal = (value: number | null, digits: number): string => (value === null ? '–' : value.toFixed(digits));

/** A percentage with one decimal ("18.9"), or "–" when undefined. */
export const percent = (value: number | null, digits = 1): string => decimal(value, digits);

/** A rate's Wilson interval as "15.2–22.1", or "–". */
export const interval = (rate: Rate, digits = 1): string =>
  rate.ci === null ? '–' : `${rate.ci.lower.toFixed(digits)}–${rate.ci.upper.toFixed(digits)}`;

/** A p-value: 4 significant digits, scientific below 1e-4. */
export const pValue = (value: number): string => (value < 1e-4 ? value.toExponential(2) : value.toPrecision(4));
