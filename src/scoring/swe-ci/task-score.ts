import { exactMean as mean } from '../stats/exact-sum.js';
import { evoScore, type EvoScoreOptions } from './evo-score.js';
import { normalizedChange } from './normalized-change.js';
import { paddedCounts, SWE_CI_ROUNDS, type SweCiRound } from './rounds.js';

/** Solved: the best (clipped, padded) count reaches p*. */
export function solved(rounds: readonly SweCiRound[], p0: number, pStar: number, n = SWE_CI_ROUNDS): boolean {
  return Math.max(...paddedCounts(rounds, p0, pStar, n)) >= pStar;
}

/** Zero-regression: the padded count sequence starting at p0 never decreases. */
export function zeroRegression(rounds: readonly SweCiRound[], p0: number, pStar: number, n = SWE_CI_ROUNDS): boolean {
  let previous = Math.min(Math.max(p0, 0), pStar);
  for (const count of paddedCounts(rounds, p0, pStar, n)) {
    if (count < previous) return false;
    previous = count;
  }
  return true;
}

/** One SWE-CI task of a run: its base and target counts and its rounds in order. */
export interface SweCiTaskInput {
  taskId: string;
  p0: number;
  pStar: number;
  rounds: readonly SweCiRound[];
}

/** Scores of one SWE-CI task. */
export interface SweCiTaskScore {
  taskId: string;
  p0: number;
  pStar: number;
  rounds: number;
  invalidRounds: number;
  /** The count the last scored round contributes (clipped to [0, p*], invalid = 0); null without rounds. */
  finalPassed: number | null;
  /** Normalized change of {@link finalPassed}; null without rounds. */
  finalChange: number | null;
  evoScore: number;
  solved: boolean;
  zeroRegression: boolean;
}

/** Per-run SWE-CI summary: per-task scores and their means (rates are fractions in [0, 1]). */
export interface SweCiRunSummary {
  tasks: SweCiTaskScore[];
  meanEvoScore: number | null;
  solvedRate: number | null;
  zeroRegressionRate: number | null;
}

/** Scores one task. */
export function scoreSweCiTask(task: SweCiTaskInput, options: EvoScoreOptions = {}): SweCiTaskScore {
  const n = options.n ?? SWE_CI_ROUNDS;
  const scored = Math.min(task.rounds.length, n);
  const finalPassed = scored === 0 ? null : (paddedCounts(task.rounds, task.p0, task.pStar, n)[scored - 1] ?? null);
  return {
    taskId: task.taskId,
    p0: task.p0,
    pStar: task.pStar,
    rounds: task.rounds.length,
    invalidRounds: task.rounds.filter((round) => round === null || (typeof round === 'object' && round.passed === null)).length,
    finalPassed,
    finalChange: finalPassed === null ? null : normalizedChange(finalPassed, task.p0, task.pStar),
    evoScore: evoScore(task.rounds, task.p0, task.pStar, options),
    solved: solved(task.rounds, task.p0, task.pStar, n),
    zeroRegression: zeroRegression(task.rounds, task.p0, task.pStar, n),
  };
}

/** Scores every task of a run and takes the means over tasks (null for a run without tasks). */
export function summarizeSweCiRun(tasks: readonly SweCiTaskInput[], options: EvoScoreOptions = {}): SweCiRunSummary {
  const scores = tasks.map((task) => scoreSweCiTask(task, options));
  return {
    tasks: scores,
    meanEvoScore: mean(scores.map((score) => score.evoScore)),
    solvedRate: mean(scores.map((score) => (score.solved ? 1 : 0))),
    zeroRegressionRate: mean(scores.map((score) => (score.zeroRegression ? 1 : 0))),
  };
}
