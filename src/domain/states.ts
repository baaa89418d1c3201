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

/**
 * What a run, job or submission finally says (README "Outcomes"): `passed`; `failed` (the repository's own CI
 * steps failed on the patched code); `infra_error` (the replay itself could not be carried out); `patch_failed`
 * (the patch does not apply); `no_run`, `cancelled`, `timed_out`. Only `failed` and `patch_failed` are the
 * patch's failures; the others never count as a failed repair.
 */
export const OUTCOMES = ['passed', 'failed', 'infra_error', 'patch_failed', 'no_run', 'cancelled', 'timed_out'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** A job's outcome: a run's jobs can also be skipped (their `needs` failed, or their `if` was false). */
export const JOB_OUTCOMES = ['passed', 'failed', 'infra_error', 'cancelled', 'timed_out', 'skipped'] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];

export const isJobOutcome = (value: string | null): value is JobOutcome => value !== null && (JOB_OUTCOMES as readonly string[]).includes(value);

/** Outcomes that say nothing about the patch: reported apart, never a failed repair. */
export const NOT_EVALUATED_OUTCOMES = ['infra_error', 'no_run', 'timed_out', 'cancelled'] as const satisfies readonly Outcome[];

/** Why an outcome is what it is. Every outcome but `passed` carries one (a plain `failed` job: `step_failed`). */
export const REASON_CODES = [
  // infra_error: the job could not start or run here
  'job_setup_failed',
  'unsupported_feature',
  'not_replayable',
  'action_unavailable',
  'network_unreachable',
  'runner_tooling_missing',
  // a step asked for root (sudo, apt) where steps run unprivileged (the local executor's sandbox)
  'root_required',
  'out_of_disk',
  'out_of_memory',
  // the local executor's step limits and sandbox (src/executor/sandbox)
  'process_limit',
  'cpu_time_limit',
  'file_size_limit',
  'output_limit',
  'sandbox_failed',
  'sandbox_unavailable',
  'runner_lost',
  'startup_failure',
  'backend_error',
  'database_unavailable',
  'prepare_failed',
  'publish_failed',
  // failed: the repository's own steps
  'step_failed',
  'tests_not_run',
  // the other outcomes
  'patch_does_not_apply',
  'no_run',
  'cancelled',
  'timed_out',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** The outcome and default reason of each terminal error state (`completed` is decided from the run's jobs). */
export const STATE_OUTCOMES: Partial<Record<SubmissionState, { outcome: Outcome; reason: ReasonCode }>> = {
  patch_failed: { outcome: 'patch_failed', reason: 'patch_does_not_apply' },
  publish_failed: { outcome: 'infra_error', reason: 'publish_failed' },
  no_run: { outcome: 'no_run', reason: 'no_run' },
  timed_out: { outcome: 'timed_out', reason: 'timed_out' },
  cancelled: { outcome: 'cancelled', reason: 'cancelled' },
  infra_error: { outcome: 'infra_error', reason: 'prepare_failed' },
};

/** Evidence for an outcome: the job and step that prove it and the log lines (1-based, in the archived log). */
export interface OutcomeEvidence {
  job?: string;
  step: string | null;
  lines: { line: number; text: string }[];
  /** The rule of the outcome judge that matched. */
  rule?: string;
  /** The tests-run check of a candidate (see src/pipeline/tests-not-run.ts). */
  testsCheck?: {
    basis: string;
    referenceSubmissionId: string | null;
    summary: string;
    missing?: string[];
    candidateOutcomes?: Record<string, string>;
    counts?: { reference: number; candidate: number; referenceSummaries: string[]; candidateSummaries: string[] };
  };
}

export const SUBMISSION_KINDS = ['candidate', 'baseline', 'reference', 'revalidation'] as const;
export type SubmissionKind = (typeof SUBMISSION_KINDS)[number];

/**
 * An instance's verdict from its last re-validation (docs/revalidation.md): `broken` cannot be prepared (commit gone,
 * ground truth does not apply, workflow invalid); `unreplayable`: the backend's preflight or infrastructure stops it.
 */
export const INSTANCE_HEALTH = ['unknown', 'healthy', 'flaky', 'drifted', 'broken', 'unreplayable'] as const;
export type InstanceHealth = (typeof INSTANCE_HEALTH)[number];

/** An instance's lifecycle: only `active` instances are scored by default (docs/revalidation.md). */
export const INSTANCE_LIFECYCLE = ['active', 'suspect', 'quarantined'] as const;
export type InstanceLifecycle = (typeof INSTANCE_LIFECYCLE)[number];

export const ROLES = ['operator', 'submitter'] as const;
export type Role = (typeof ROLES)[number];
