export {
  NOT_REPAIRED_REASONS,
  NOT_EVALUATED,
  REPAIR_FAILURES,
  type NotEvaluatedReason,
  type CiInstance,
  type CiSubmissionOutcome,
  type CiRunInput,
  type NotRepairedReason,
  type InstanceOutcome,
} from './types.js';
export { classifyOutcome, latestSubmissions } from './outcome.js';
export { selectScope, UNHEALTHY, type CiScope } from './scope.js';
export { resolveRun, type RunOutcomes, type InstanceResult } from './run-outcomes.js';
export { summarizeRun, type CiRunSummary } from './run-summary.js';
export { byErrorType, byRepository, type TypeRow, type RepoRow } from './breakdowns.js';
export { observedTypes, type ObservedTypes, type TypeCounts } from './observed-types.js';
export { compareRuns, type PairedComparison } from './paired.js';
export { buildCiRepairReport, RATE_DEFINITIONS, type CiRepairReport, type CiRepairReportOptions, type InstanceRow } from './report.js';
