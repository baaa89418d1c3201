/** Submission lifecycle (see README "Submission states"). State only moves forward. */
export const SUBMISSION_STATES = [
  'queued',
  'preparing',
  'published',
  'running',
  'completed',
  'patch_failed',
  'publish_failed',
  'no_run',
  'timed_out',
  'cancelled',
  'infra_error',
] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];

export const TERMINAL_STATES: readonly SubmissionState[] = [
  'completed',
  'patch_failed',
  'publish_failed',
  'no_run',
  'timed_out',
  'cancelled',
  'infra_error',
];

const RANK: Record<SubmissionState, number> = {
  queued: 0,
  preparing: 1,
  published: 2,
  running: 3,
  completed: 4,
  patch_failed: 4,
  publish_failed: 4,
  no_run: 4,
  timed_out: 4,
  cancelled: 4,
  infra_error: 4,
};

export const isTerminal = (state: SubmissionState): boolean => RANK[state] === 4;

/** A transition is allowed only forwards, and never out of a terminal state. */
export function canTransition(from: SubmissionState, to: SubmissionState): boolean {
  if (isTerminal(from)) return false;
  return RANK[to] > RANK[from];
}

export const VERDICTS = ['passed', 'failed', 'invalid'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const SUBMISSION_KINDS = ['candidate', 'baseline', 'reference', 'revalidation'] as const;
export type SubmissionKind = (typeof SUBMISSION_KINDS)[number];

export const INSTANCE_HEALTH = ['unknown', 'healthy', 'flaky', 'drifted'] as const;
export type InstanceHealth = (typeof INSTANCE_HEALTH)[number];

export const ROLES = ['operator', 'submitter'] as const;
export type Role = (typeof ROLES)[number];
