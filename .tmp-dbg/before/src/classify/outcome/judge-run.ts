import type { JobOutcome, Outcome, OutcomeEvidence, ReasonCode } from '../../domain/states.js';

/** A job of the run as judged (Job.outcome, outcomeReason, outcomeEvidence). */
export interface JudgedJob {
  name: string;
  outcome: JobOutcome | null;
  reason: string | null;
  evidence: OutcomeEvidence | null;
}

export interface JudgeRunInput {
  /** The workflow run's conclusion as GitHub (or the local executor) reports it. */
  conclusion: string | null;
  jobs: readonly JudgedJob[];
  /** Someone asked to cancel the submission: a cancelled run is then `cancelled`, whatever its jobs say. */
  cancelRequested: boolean;
}

export type RunOutcome = Extract<Outcome, 'passed' | 'failed' | 'infra_error' | 'cancelled' | 'timed_out'>;

/** The run's outcome, its reason, and the job, step and lines that prove it (none for `passed`). */
export interface RunJudgement {
  outcome: RunOutcome;
  reason: ReasonCode | null;
  details: OutcomeEvidence | null;
}

const withJob = (job: JudgedJob | undefined): OutcomeEvidence | null =>
  job === undefined ? null : { job: job.name, step: job.evidence?.step ?? null, lines: job.evidence?.lines ?? [], ...(job.evidence?.rule === undefined ? {} : { rule: job.evidence.rule }) };

const reasonOf = (job: JudgedJob | undefined, fallback: ReasonCode): ReasonCode => (job?.reason ?? fallback) as ReasonCode;

/**
 * Decides a completed run from its conclusion and its jobs' outcomes:
 * - `success` → passed; the run's own `timed_out` (RUN_TIMEOUT_MINUTES) → timed_out; `startup_failure` → infra_error
 *   (startup_failure); `stale`/`action_required` → infra_error (backend_error); `cancelled` on request → cancelled;
 * - otherwise from the jobs, in this order: any job that failed on the repository's own steps → failed (so a
 *   platform error elsewhere never hides a real failure); else any timed-out job → timed_out; else any
 *   infra_error job → infra_error with the first such job's reason and evidence; else any cancelled job →
 *   cancelled; a failed run with no judged job (jobs not listed) → failed.
 */
export function judgeRun(input: JudgeRunInput): RunJudgement {
  switch (input.conclusion) {
    case 'success':
      return { outcome: 'passed', reason: null, details: null };
    case 'timed_out':
      return { outcome: 'timed_out', reason: 'timed_out', details: withJob(input.jobs.find((job) => job.outcome === 'timed_out')) };
    case 'startup_failure':
      return { outcome: 'infra_error', reason: 'startup_failure', details: null };
    case 'stale':
    case 'action_required':
      return { outcome: 'infra_error', reason: 'backend_error', details: null };
    default:
      break;
  }
  if (input.conclusion === 'cancelled' && input.cancelRequested) return { outcome: 'cancelled', reason: 'cancelled', details: null };
  const first = (outcome: JobOutcome): JudgedJob | undefined => input.jobs.find((job) => job.outcome === outcome);
  const failed = first('failed');
  if (failed !== undefined) return { outcome: 'failed', reason: null, details: withJob(failed) };
  const timedOut = first('timed_out');
  if (timedOut !== undefined) return { outcome: 'timed_out', reason: 'timed_out', details: withJob(timedOut) };
  const infra = first('infra_error');
  if (infra !== undefined) return { outcome: 'infra_error', reason: reasonOf(infra, 'backend_error'), details: withJob(infra) };
  const cancelled = first('cancelled');
  if (cancelled !== undefined || input.conclusion === 'cancelled') return { outcome: 'cancelled', reason: 'cancelled', details: withJob(cancelled) };
  return { outcome: 'failed', reason: null, details: null };
}

/** Reads stored evidence (Job.outcomeEvidence, Submission.reasonDetails) back; anything else is null. */
export function readEvidence(value: unknown): OutcomeEvidence | null {
  if (typeof value !== 'object' || value === null || !('lines' in value) || !Array.isArray(value.lines)) return null;
  const step = 'step' in value && typeof value.step === 'string' ? value.step : null;
  const lines = value.lines.flatMap((line: unknown) =>
    typeof line === 'object' && line !== null && 'line' in line && 'text' in line && typeof line.line === 'number' && typeof line.text === 'string' ? [{ line: line.line, text: line.text }] : [],
  );
  const job = 'job' in value && typeof value.job === 'string' ? { job: value.job } : {};
  const rule = 'rule' in value && typeof value.rule === 'string' ? { rule: value.rule } : {};
  return { ...job, step, lines, ...rule };
}
