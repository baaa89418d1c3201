import { isTerminal } from '../../domain/states.js';
import type { CiSubmissionOutcome, InstanceOutcome } from './types.js';

/**
 * Classifies an instance's latest submission (or its absence):
 * - none → `no_submission`; a non-terminal state → `pending`;
 * - a terminal error state (patch_failed, publish_failed, no_run, timed_out, cancelled, infra_error) → that state,
 *   whatever the verdict;
 * - `completed` → its verdict (`passed`, `failed`, `invalid`), or `pending` while no verdict is recorded.
 * Only `passed` counts as repaired.
 */
export function classifyOutcome(submission: CiSubmissionOutcome | undefined): InstanceOutcome {
  if (submission === undefined) return 'no_submission';
  const { state, verdict } = submission;
  if (!isTerminal(state)) return 'pending';
  switch (state) {
    case 'patch_failed':
    case 'publish_failed':
    case 'no_run':
    case 'timed_out':
    case 'cancelled':
    case 'infra_error':
      return state;
    default:
      return verdict ?? 'pending';
  }
}

const orderKey = (value: Date | number): number => (typeof value === 'number' ? value : value.getTime());

/** The latest submission per instance id (by `createdAt`; on ties the later array element wins). */
export function latestSubmissions(submissions: readonly CiSubmissionOutcome[]): Map<string, CiSubmissionOutcome> {
  const latest = new Map<string, CiSubmissionOutcome>();
  for (const submission of submissions) {
    const current = latest.get(submission.instanceId);
    if (current === undefined || orderKey(submission.createdAt) >= orderKey(current.createdAt)) {
      latest.set(submission.instanceId, submission);
    }
  }
  return latest;
}
