import { readEvidence } from '../classify/outcome/index.js';
import type { JobWithSteps, SubmissionSummary } from '../db/index.js';

/** `run-local`'s final table: one row per job, its result, failed step, error types and judged outcome. */
export function runLocalRows(jobs: readonly JobWithSteps[]): string[][] {
  const rows: string[][] = [['job', 'result', 'failed step', 'error types', 'outcome']];
  for (const job of jobs) {
    const outcome = job.outcome === null ? '' : `${job.outcome}${job.outcomeReason === null || job.outcome === 'failed' ? '' : ` (${job.outcomeReason})`}`;
    rows.push([job.name, job.conclusion ?? job.status, job.failedStep ?? '', [...new Set(job.failureLabels.map((label) => label.type))].join(', '), outcome]);
  }
  return rows;
}

/**
 * The verdict line and, when the submission did not pass, its outcome, reason and evidence:
 * `verdict: invalid — outcome infra_error (network_unreachable), job "test", step "Install"` then the log lines.
 */
export function verdictLines(submission: SubmissionSummary): string[] {
  const verdict = `verdict: ${submission.verdict ?? submission.state}${submission.errorMessage === null ? '' : ` (${submission.errorMessage})`}`;
  if (submission.outcome === null || submission.outcome === 'passed') return [verdict];
  const details = readEvidence(submission.reasonDetails);
  const where = [details?.job === undefined ? null : `job "${details.job}"`, details?.step == null ? null : `step "${details.step}"`].filter((part) => part !== null);
  const head = `${verdict} — outcome ${submission.outcome}${submission.reason === null ? '' : ` (${submission.reason})`}${where.length === 0 ? '' : `, ${where.join(', ')}`}`;
  return [head, ...(details?.lines ?? []).map((line) => `  ${line.line}: ${line.text.slice(0, 300)}`)];
}
