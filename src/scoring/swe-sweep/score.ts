import type { SweepGradedTrial, SweepTrialOutcome } from './grade.js';

/** Task score = resolved / bugs, or 0 when the regression gate failed (0 for a task without bugs). */
export function sweepTaskScore(trial: SweepGradedTrial): number {
  if (trial.regressed || trial.bugs === 0) return 0;
  return trial.resolved / trial.bugs;
}

/** SWE-sweep benchmark score. */
export interface SweepScore {
  gradedTasks: number;
  gradedBugs: number;
  /** Resolved bugs in regression-free trials. */
  resolvedBugs: number;
  resolvedIgnoringRegressions: number;
  /** Micro-average: resolvedBugs / gradedBugs (0 with no graded bugs). */
  score: number;
  scoreIgnoringRegressions: number;
  evaluationFailures: number;
}

export const isEvaluationFailure = (trial: SweepTrialOutcome): trial is Extract<SweepTrialOutcome, { evaluationFailed: true }> =>
  'evaluationFailed' in trial;

/**
 * Benchmark score over graded trials: total resolved bugs in regression-free trials / total bugs, and the
 * same ignoring regressions. Trials whose grader failed are left out of both sides and counted.
 * @example 10, 5 (regressed) and 20 bugs resolving 4, 5, 2 → score 6/35, ignoring regressions 11/35.
 */
export function sweepScore(trials: readonly SweepTrialOutcome[]): SweepScore {
  let gradedTasks = 0;
  let gradedBugs = 0;
  let resolvedBugs = 0;
  let resolvedIgnoringRegressions = 0;
  let evaluationFailures = 0;
  for (const trial of trials) {
    if (isEvaluationFailure(trial)) {
      evaluationFailures += 1;
      continue;
    }
    gradedTasks += 1;
    gradedBugs += trial.bugs;
    resolvedIgnoringRegressions += trial.resolved;
    if (!trial.regressed) resolvedBugs += trial.resolved;
  }
  const ratio = (resolved: number): number => (gradedBugs === 0 ? 0 : resolved / gradedBugs);
  return {
    gradedTasks,
    gradedBugs,
    resolvedBugs,
    resolvedIgnoringRegressions,
    score: ratio(resolvedBugs),
    scoreIgnoringRegressions: ratio(resolvedIgnoringRegressions),
    evaluationFailures,
  };
}
