import type { ErrorType } from '../../domain/error-types.js';
import type { InstanceHealth, InstanceLifecycle, Outcome, SubmissionState, Verdict } from '../../domain/states.js';

/** A CI-Repair-Bench instance as scoring needs it. */
export interface CiInstance {
  id: string;
  /** `owner/name`. */
  repo: string;
  /** Instance labels (normalized error types); an instance counts once in every type it carries. */
  labels: readonly ErrorType[];
  health: InstanceHealth;
  /** The instance's lifecycle (docs/revalidation.md): when given, only `active` instances are in the default scope. */
  lifecycle?: InstanceLifecycle;
  /** Why it is not active (the last transition's reason). */
  lifecycleReason?: string | null;
}

/** One submission's outcome. Several per instance are allowed: the latest by `createdAt` counts. */
export interface CiSubmissionOutcome {
  instanceId: string;
  state: SubmissionState;
  verdict: Verdict | null;
  /** The submission's outcome (Submission.outcome); absent or null on rows written before outcomes existed. */
  outcome?: Outcome | null;
  /** Why (the outcome's reason code, or free text on older rows), shown in reports. */
  reason?: string | null;
  /** Failure types observed in the replayed jobs. */
  observedLabels: readonly ErrorType[];
  /** Ordering key; on ties the later element of the input array wins. */
  createdAt: Date | number;
}

/** One run (e.g. one model's patches) to score. */
export interface CiRunInput {
  id: string;
  label: string;
  submissions: readonly CiSubmissionOutcome[];
}

/**
 * Not repaired because of the patch: its CI steps failed (`failed`) or it does not apply (`patch_failed`). These are
 * the only failed repairs.
 */
export const REPAIR_FAILURES = ['failed', 'patch_failed'] as const;

/**
 * Not evaluated: the replay said nothing about the patch. `infra_error` (the replay could not be carried out;
 * publish failures included), `no_run`, `timed_out`, `cancelled`, `invalid` (older rows: completed without a usable
 * verdict), `pending` (not finished yet) and `no_submission`. Never counted as failed repairs; the strict rate still
 * counts them as not repaired.
 */
export const NOT_EVALUATED = ['infra_error', 'no_run', 'timed_out', 'cancelled', 'invalid', 'pending', 'no_submission'] as const;

/** Why an instance is not repaired: a repair failure, or not evaluated. */
export const NOT_REPAIRED_REASONS = [...REPAIR_FAILURES, ...NOT_EVALUATED] as const;
export type NotRepairedReason = (typeof NOT_REPAIRED_REASONS)[number];
export type NotEvaluatedReason = (typeof NOT_EVALUATED)[number];

/** What happened to one instance in one run. */
export type InstanceOutcome = 'passed' | NotRepairedReason;
