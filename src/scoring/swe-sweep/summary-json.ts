import { isEvaluationFailure, sweepScore, sweepTaskScore } from './score.js';
import type { SweepGradedTrial, SweepTrialOutcome } from './grade.js';

/** One task line of `sweep info --json`. */
export interface SweepTaskJson {
  task: string;
  /** Graded trials of the task (0 when every trial's grader failed). */
  trials: number;
  n_subtasks: number;
  /** Resolved bugs (not zeroed by a regression); the mean over trials when there are several. */
  n_resolved: number;
  /** Whether any graded trial failed the regression gate. */
  regressed: boolean;
  /** Task score (0 when regressed); the mean over trials when there are several. */
  reward: number;
}

/** The exact shape of SWE-sweep's `sweep info --json`. */
export interface SweepSummaryJson {
  summary: {
    graded_tasks: number;
    graded_bugs: number;
    resolved_bugs: number;
    score: number;
    score_ignoring_regressions: number;
    evaluation_failures: number;
  };
  tasks: SweepTaskJson[];
}

/**
 * Builds SWE-sweep's `sweep info --json` document. Tasks appear in order of first appearance; a task
 * whose every trial failed to grade is listed with `trials: 0` and zeros.
 */
export function sweepSummaryJson(trials: readonly SweepTrialOutcome[]): SweepSummaryJson {
  const score = sweepScore(trials);
  const byTask = new Map<string, { bugs: number; graded: SweepGradedTrial[] }>();
  for (const trial of trials) {
    const entry = byTask.get(trial.task) ?? { bugs: 0, graded: [] };
    if (!isEvaluationFailure(trial)) {
      entry.graded.push(trial);
      entry.bugs = trial.bugs;
    }
    byTask.set(trial.task, entry);
  }
  const tasks = [...byTask].map(([task, { bugs, graded }]): SweepTaskJson => {
    const mean = (values: number[]): number => (values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length);
    return {
      task,
      trials: graded.length,
      n_subtasks: bugs,
      n_resolved: mean(graded.map((trial) => trial.resolved)),
      regressed: graded.some((trial) => trial.regressed),
      reward: mean(graded.map(sweepTaskScore)),
    };
  });
  return {
    summary: {
      graded_tasks: score.gradedTasks,
      graded_bugs: score.gradedBugs,
      resolved_bugs: score.resolvedBugs,
      score: score.score,
      score_ignoring_regressions: score.scoreIgnoringRegressions,
      evaluation_failures: score.evaluationFailures,
    },
    tasks,
  };
}
