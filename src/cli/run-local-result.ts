import { labelTypeText } from '../classify/label-type-text.js';
import { readEvidence } from '../classify/outcome/index.js';
import type { JobWithSteps, SubmissionSummary } from '../db/index.js';

/** `run-local`'s final table: one row per job, its result, failed step, error types and judged outcome. */
export function runLocalRows(jobs: readonly JobWithSteps[]): string[][] {
  const rows: string[][] = [['job', 'result', 'failed step', 'error types', 'outcome']];
  for (const job of jobs) {
    const outcome = job.outcome === null ? '' : `${job.outcome}${job.outcomeReason === null || job.outcome === 'failed' ? '' : ` (${job.outcomeReason})`}`;
    rows.push([job.name, job.conclusion ?? job.status, job.failedStep ?? '', [...new Set(job.failureLabels.map(labelTypeText))].join(', '), outcome]);
  }
  return rows;
}

/**
 * The verdict line and, when the submission did not pass, its outcome, reason and evidence:
 * `verdict: invalid — outcome infra_error (network_unreachable), job "test", step "Install"` then the log lines.
 */
export function verdictLines(submission: SubmissionSummary): string[] {
  const endedEarly = endedBeforeRun(submission);
  if (endedEarly !== null) return endedEarly;
  const verdict = `verdict: ${submission.verdict ?? submission.state}${submission.errorMessage === null ? '' : ` (${submission.errorMessage})`}`;
  if (submission.outcome === null || submission.outcome === 'passed') return [verdict];
  const details = readEvidence(submission.reasonDetails);
  const where = [details?.job === undefined ? null : `job "${details.job}"`, details?.step == null ? null : `step "${details.step}"`].filter((part) => part !== null);
  const head = `${verdict} — outcome ${submission.outcome}${submission.reason === null ? '' : ` (${submission.reason})`}${where.length === 0 ? '' : `, ${where.join(', ')}`}`;
  return [head, ...(details?.lines ?? []).map((line) => `  ${line.line}: ${line.text.slice(0, 300)}`)];
}

/** What ended a submission before anything ran, said with its state as the outcome. */
const ENDED_BEFORE_RUN: Readonly<Record<string, string>> = {
  patch_failed: 'the patch does not apply at sha_fail; nothing was pushed',
  publish_failed: 'the benchmark commit could not be published',
  infra_error: 'the replay could not be carried out',
  no_run: 'no run started within the grace period',
  cancelled: 'cancelled before it ran',
};

/**
 * A submission that ended before any job ran (`patch_failed`, `publish_failed`, an `infra_error` of prepare or the
 * preflight) has no recorded outcome: its state is the outcome, and git's (or the backend's) message follows, one
 * line each: `verdict: invalid — outcome patch_failed: the patch does not apply at sha_fail; nothing was pushed`.
 */
function endedBeforeRun(submission: SubmissionSummary): string[] | null {
  const what = ENDED_BEFORE_RUN[submission.state];
  if (what === undefined) return null;
  // patch_failed and publish_failed never ran anything; the others did not when no outcome was recorded.
  if (submission.outcome !== null && !(['patch_failed', 'publish_failed'].includes(submission.state) && submission.outcome === submission.state)) return null;
  const reason = submission.reason === null || submission.reason === submission.state ? '' : ` (${submission.reason})`;
  const message = (submission.errorMessage ?? '').split('\n').map((line) => line.trimEnd()).filter((line) => line !== '').slice(0, 40);
  return [`verdict: ${submission.verdict ?? 'invalid'} — outcome ${submission.state}${reason}: ${what}`, ...message.map((line) => `  ${line}`)];
}

/** run-local's job table, or one line saying no job ran when the submission ended before publishing. */
export function runLocalTable(jobs: readonly JobWithSteps[], submission: Pick<SubmissionSummary, 'state'>): string[] {
  if (jobs.length === 0) return [`no job ran: the submission ended ${submission.state} before anything was run`];
  const rows = runLocalRows(jobs);
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
}
