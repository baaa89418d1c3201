import type { TestOutcome } from '../swe-ci/test-sets.js';
import { passingTestIds } from '../swe-ci/test-sets.js';

/** Why a base-passing test counts as a regression. */
export type RegressionKind = 'failed' | 'error' | 'skipped' | 'missing' | 'other';

/** Result of the SWE-sweep regression gate. */
export interface RegressionGate {
  passed: boolean;
  timedOut: boolean;
  regressions: { testId: string; kind: RegressionKind }[];
}

/**
 * SWE-sweep regression gate: every test of the recorded base-passing list must pass in the visible-suite
 * run (failed, error, skipped or missing all count as regressions); a visible-suite timeout fails the gate.
 */
export function regressionGate(
  basePassing: readonly string[],
  visibleResults: readonly TestOutcome[],
  options: { timedOut?: boolean } = {},
): RegressionGate {
  const passing = passingTestIds(visibleResults);
  const seen = new Map<string, string>();
  for (const { testId, outcome } of visibleResults) if (outcome !== 'passed' || !seen.has(testId)) seen.set(testId, outcome);
  const regressions = [...new Set(basePassing)]
    .filter((testId) => !passing.has(testId))
    .map((testId) => ({ testId, kind: regressionKind(seen.get(testId)) }));
  const timedOut = options.timedOut ?? false;
  return { passed: !timedOut && regressions.length === 0, timedOut, regressions };
}

function regressionKind(outcome: string | undefined): RegressionKind {
  if (outcome === undefined) return 'missing';
  if (outcome === 'failed' || outcome === 'error' || outcome === 'skipped') return outcome;
  return 'other';
}

/**
 * A SWE-sweep bug is resolved when none of its targeted tests failed or errored and at least one passed.
 * Results of tests outside `targetedTests` are ignored (all results count when the list is empty).
 */
export function bugResolved(targetedTests: readonly string[], results: readonly TestOutcome[]): boolean {
  const targeted = new Set(targetedTests);
  const relevant = targeted.size === 0 ? results : results.filter((result) => targeted.has(result.testId));
  if (relevant.some((result) => result.outcome === 'failed' || result.outcome === 'error')) return false;
  return relevant.some((result) => result.outcome === 'passed');
}

/** Raw results of one graded SWE-sweep trial. */
export interface SweepTrialResults {
  task: string;
  basePassing: readonly string[];
  visibleResults: readonly TestOutcome[];
  visibleTimedOut?: boolean;
  bugs: readonly { id: string; targetedTests: readonly string[]; results: readonly TestOutcome[] }[];
}

/** A graded trial, the input of the score: bug counts and the gate. */
export interface SweepGradedTrial {
  task: string;
  bugs: number;
  resolved: number;
  regressed: boolean;
}

/** A trial whose grader itself failed: left out of both sides of the score, and counted. */
export interface SweepFailedTrial {
  task: string;
  evaluationFailed: true;
}

/** Either kind of trial outcome. */
export type SweepTrialOutcome = SweepGradedTrial | SweepFailedTrial;

/** Grades one trial from its raw results. */
export function gradeSweepTrial(trial: SweepTrialResults): SweepGradedTrial {
  const gate = regressionGate(trial.basePassing, trial.visibleResults, { timedOut: trial.visibleTimedOut ?? false });
  const resolved = trial.bugs.filter((bug) => bugResolved(bug.targetedTests, bug.results)).length;
  return { task: trial.task, bugs: trial.bugs.length, resolved, regressed: !gate.passed };
}
