import type { ExecutorJobReport } from '../../domain/executor-report.js';
import type { OutcomeRule } from './rules/index.js';

/**
 * Whether a rule's match may decide. Lines of the step's own programs always may; a line only the runner writes may
 * on GitHub (undefined report: the log is all there is), and on a backend whose executor reports what it observed
 * only where that report names the same cause at the same step (`step` is the failing step's number; 1 for "Set up
 * job"; ignored for job-wide rules).
 */
export function confirmed(rule: OutcomeRule, executor: ExecutorJobReport | null | undefined, step: number | undefined): boolean {
  if (executor === undefined || rule.issuer === 'step') return true;
  if (executor === null) return false;
  if (rule.outcome === 'timed_out') return rule.scope === 'job' ? executor.timedOut : step !== undefined && executor.timedOutSteps.includes(step);
  const reported = executor.infraError;
  return reported !== null && reported.reason === rule.reason && (rule.scope === 'job' || reported.stepNumber === step);
}

/** The platform failure the executor reported at `step`, when it did. */
export const reportedAt = (executor: ExecutorJobReport | null | undefined, step: number | undefined): ExecutorJobReport['infraError'] =>
  executor?.infraError != null && step !== undefined && executor.infraError.stepNumber === step ? executor.infraError : null;
