/** One recorded test outcome (pytest node id and outcome as reported, e.g. passed, failed, error, skipped, xfailed). */
export interface TestOutcome {
  testId: string;
  outcome: string;
}

/**
 * Ids of the tests that passed: outcome `passed` only (not xfailed, xpassed, skipped or error). A test
 * recorded several times (pytest reports a teardown error next to a passed call) passes only if every
 * record of it is `passed`.
 */
export function passingTestIds(results: readonly TestOutcome[]): Set<string> {
  const passing = new Set<string>();
  const failing = new Set<string>();
  for (const { testId, outcome } of results) {
    if (outcome === 'passed' && !failing.has(testId)) passing.add(testId);
    if (outcome !== 'passed') {
      failing.add(testId);
      passing.delete(testId);
    }
  }
  return passing;
}

/** p0, p* and the test sets behind them. */
export interface SweCiTestSets {
  /** Tests passed at the base commit. */
  p0: number;
  /** p0 + gap0. */
  pStar: number;
  /** Oracle-passing tests that do not pass at base. */
  gap0: number;
  basePassing: string[];
  gapTests: string[];
}

/**
 * Computes p0 and p* of a SWE-CI task from the base and oracle runs of the same (oracle) test files:
 * p0 = tests passing at base; gap0 = oracle-passing tests not passing at base; p* = p0 + gap0.
 */
export function swecTestSets(input: { baseResults: readonly TestOutcome[]; oracleResults: readonly TestOutcome[] }): SweCiTestSets {
  const base = passingTestIds(input.baseResults);
  const oracle = passingTestIds(input.oracleResults);
  const gapTests = [...oracle].filter((id) => !base.has(id)).sort();
  return { p0: base.size, pStar: base.size + gapTests.length, gap0: gapTests.length, basePassing: [...base].sort(), gapTests };
}
