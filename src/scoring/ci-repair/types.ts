import type { ErrorType } from '../../domain/error-types.js';
import type { InstanceHealth, SubmissionState, Verdict } from '../../domain/states.js';

/** A CI-Repair-Bench instance as scoring needs it. */
export interface CiInstance {
  id: string;
  /** `owner/name`. */
  repo: string;
  /** Instance labels (normalized error types); an instance counts once in every type it carries. */
  labels: readonly ErrorType[];
  health: InstanceHealth;
}

/** One submission's outcome. Several per instance are allowed: the latest by `createdAt` counts. */
export interface CiSubmissionOutcome {
  instanceId: string;
  state: SubmissionState;
  verdict: Verdict | null;
  /** Why (for invalid verdicts and error states), free text shown in reports. */
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

/** Why an instance is not repaired. */
export const NOT_REPAIRED_REASONS = [
  'no_submission',
  'pending',
  'patch_failed',
  'publish_failed',
  'no_run',
  'timed_out',
  'cancelled',
  'infra_error',
  'invalid',
  'failed',
] as const;
export type NotRepairedReason = (typeof NOT_REPAIRED_REASONS)[number];

/** What happened to one instance in one run. */
export type InstanceOutcome = 'passed' | NotRepairedReason;
