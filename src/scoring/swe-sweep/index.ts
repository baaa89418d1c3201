export {
  regressionGate,
  bugResolved,
  gradeSweepTrial,
  type RegressionGate,
  type RegressionKind,
  type SweepTrialResults,
  type SweepGradedTrial,
  type SweepFailedTrial,
  type SweepTrialOutcome,
} from './grade.js';
export { sweepTaskScore, sweepScore, isEvaluationFailure, type SweepScore } from './score.js';
export { sweepSummaryJson, type SweepSummaryJson, type SweepTaskJson } from './summary-json.js';
