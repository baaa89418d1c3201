/**
 * Correctly rounded sum of floating-point numbers (Shewchuk's algorithm, as Python's `math.fsum`):
 * the result is the double nearest the exact sum, whatever the order. Scores summed with it do not
 * depend on summation order, so `0.2 + 0.5 − 0.1 + 17 × 1.0` gives 17.6 and EvoScore 0.88 exactly.
 */
export function exactSum(values: Iterable<number>): number {
  const partials: number[] = [];
  for (let x of values) {
    let i = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  return roundPartials(partials);
}

function roundPartials(partials: number[]): number {
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n] ?? 0;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n] ?? 0;
    hi = x + y;
    const yr = hi - x;
    lo = y - yr;
    if (lo !== 0) break;
  }
  const next = partials[n - 1];
  if (n > 0 && next !== undefined && ((lo < 0 && next < 0) || (lo > 0 && next > 0))) {
    const y = lo * 2;
    const x = hi + y;
    const yr = x - hi;
    if (y === yr) hi = x;
  }
  return hi;
}

/** Mean with a correctly rounded sum; null for no values. */
export function exactMean(values: readonly number[]): number | null {
  return values.length === 0 ? null : exactSum(values) / values.length;
}
