import { isTerminal, type Outcome } from '../../domain/states.js';
import type { CiSubmissionOutcome, InstanceOutcome } from './types.js';

/** What each recorded outcome means for scoring (publish failures are infra errors). */
const BY_OUTCOME: Record<Outcome, InstanceOutcome> = {
  passed: 'passed',
  failed: 'failed',
  patch_failed: 'patch_failed',
  infra_error: 'infra_error',
  no_run: 'no_run',
  cancelled: 'cancelled',
  timed_out: 'timed_out',
};

/**
 * Classifies an instance's latest submission (or its absence):
 * - none → `no_submission`; a non-terminal state → `pending`;
 * - a recorded outcome (Submission.outcome) → that outcome;
 * - older rows without one: `publish_failed` → `infra_error`; another terminal error state (patch_failed, no_run,
 *   timed_out, cancelled, infra_error) → that state, whatever the verdict; `completed` → its verdict (`passed`,
 *   `failed`, `invalid`), or `pending` while no verdict is recorded.
 * Only `passed` counts as repaired; only `failed` and `patch_failed` count as failed repairs.
 */
export function classifyOutcome(submission: CiSubmissionOutcome | undefined): InstanceOutcome {
  if (submission === undefined) return 'no_submission';
  const { state, verdict } = submission;
  if (!isTerminal(state)) return 'pending';
  if (submission.outcome !== undefined && submission.outcome !== null) return BY_OUTCOME[submission.outcome];
  switch (state) {
    case 'publish_failed':
      return 'infra_error';
    case 'patch_failed':
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
