export { normalizedChange, clipCount } from './normalized-change.js';
export { roundCount, paddedCounts, SWE_CI_ROUNDS, type SweCiRound } from './rounds.js';
export { evoScore, type EvoScoreOptions } from './evo-score.js';
export {
  solved,
  zeroRegression,
  scoreSweCiTask,
  summarizeSweCiRun,
  type SweCiTaskInput,
  type SweCiTaskScore,
  type SweCiRunSummary,
} from './task-score.js';
export { swecTestSets, passingTestIds, type TestOutcome, type SweCiTestSets } from './test-sets.js';
