/**
 * SWE-CI normalized change of a passed-test count `p` relative to the base count `p0` and the target
 * `pStar` (p* = p0 + gap0): (p − p0)/(p* − p0) above the base, (p − p0)/p0 below it, 0 otherwise.
 * The caller clips `p` to [0, p*] first (see {@link clipCount}); the result then lies in [−1, 1].
 */
export function normalizedChange(p: number, p0: number, pStar: number): number {
  if (p > p0) return (p - p0) / (pStar - p0);
  if (p < p0) return (p - p0) / p0;
  return 0;
}

/** Clips a passed-test count to [0, p*], as SWE-CI does before scoring a round. */
export const clipCount = (p: number, pStar: number): number => Math.min(Math.max(p, 0), pStar);
