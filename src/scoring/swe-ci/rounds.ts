/**
 * One SWE-CI round as the caller knows it: the number of tests that passed, or `null` when the round's
 * test run was invalid (pytest exit code above 1, timeout, no report). A bare number or `null` is accepted
 * as shorthand.
 */
export type SweCiRound = { passed: number | null } | number | null;

/** Default number of rounds a SWE-CI sequence is padded to. */
export const SWE_CI_ROUNDS = 20;

/** The passed count a round contributes: an invalid round counts as 0 passed. */
export function roundCount(round: SweCiRound): number {
  if (round === null) return 0;
  if (typeof round === 'number') return round;
  return round.passed ?? 0;
}

/**
 * The clipped count sequence padded to `n` entries with its last value (p0 when there are no rounds);
 * rounds beyond `n` are ignored. Counts are clipped to [0, p*].
 */
export function paddedCounts(rounds: readonly SweCiRound[], p0: number, pStar: number, n = SWE_CI_ROUNDS): number[] {
  const counts = rounds.slice(0, n).map((round) => Math.min(Math.max(roundCount(round), 0), pStar));
  const last = counts.at(-1) ?? Math.min(Math.max(p0, 0), pStar);
  while (counts.length < n) counts.push(last);
  return counts;
}
