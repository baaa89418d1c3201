import { labelTypeText } from '../classify/label-type-text.js';
import { readEvidence } from '../classify/outcome/index.js';
import type { FailureLabelRow, JobWithSteps, SubmissionSummary } from '../db/index.js';
import { NOT_EVALUATED_OUTCOMES } from '../domain/states.js';

const MAX_SUMMARY = 65_000;

/** The result summary shown on the check run (and by `ci-replay run-local`): verdict, per-job table, error types with evidence. */
export function renderResultSummary(submission: SubmissionSummary, jobs: JobWithSteps[], labels: FailureLabelRow[], verdict: string, detailsUrl: string): string {
  const lines = [`## ci-replay: ${verdict}`, '', `Instance \`${submission.instanceId}\`, submission [\`${submission.id}\`](${detailsUrl}), kind ${submission.kind}.`, ''];
  lines.push(...outcomeLines(submission), '');
  lines.push('| Job | Result | Outcome | Failed step | Error types |', '|---|---|---|---|---|');
  for (const job of jobs) {
    const types = [...new Set(job.failureLabels.map(labelTypeText))].join(', ');
    const outcome = job.outcome === null ? '' : `${job.outcome}${job.outcomeReason === null || job.outcome === 'failed' ? '' : ` (${job.outcomeReason})`}`;
    lines.push(`| ${escape(job.name)} | ${job.conclusion ?? job.status} | ${outcome} | ${escape(job.failedStep ?? '')} | ${types} |`);
  }
  if (labels.length > 0) {
    lines.push('', '### Why it failed');
    for (const label of labels) {
      const evidence = Array.isArray(label.evidence) ? (label.evidence as { text?: string; startLine?: number }[]) : [];
      lines.push('', `**${labelTypeText(label)}**${label.tool === null ? '' : ` (${label.tool})`}${label.stepName === null ? '' : ` in step "${escape(label.stepName)}"`}`);
      const first = evidence[0];
      if (first?.text !== undefined) lines.push('', '```', first.text.slice(0, 1500), '```');
    }
  }
  const standardization = submission.standardization as { markdown?: string } | null;
  if (standardization?.markdown !== undefined) lines.push('', '<details><summary>Standardization report</summary>', '', standardization.markdown, '', '</details>');
  if (submission.revertedFiles.length > 0) lines.push('', `Reverted protected paths: ${submission.revertedFiles.map((file) => `\`${file}\``).join(', ')}`);
  const text = lines.join('\n');
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY - 20)}\n\n… (truncated)` : text;
}

/** The submission's outcome, its reason, and the job, step and log lines that prove it. */
function outcomeLines(submission: SubmissionSummary): string[] {
  if (submission.outcome === null) return [];
  const notEvaluated = (NOT_EVALUATED_OUTCOMES as readonly string[]).includes(submission.outcome);
  const out = [
    `**Outcome: ${submission.outcome}**${submission.reason === null ? '' : ` (\`${submission.reason}\`)`}${notEvaluated ? ': the replay did not evaluate the patch; this is not counted as a failed repair.' : ''}`,
  ];
  const details = readEvidence(submission.reasonDetails);
  if (details === null) return out;
  const where = [details.job === undefined ? null : `job "${escape(details.job)}"`, details.step === null ? null : `step "${escape(details.step)}"`].filter((part) => part !== null);
  if (where.length > 0) out.push('', `Evidence from ${where.join(', ')}:`);
  if (details.lines.length > 0) out.push('', '```', ...details.lines.map((line) => `${line.line}: ${line.text.slice(0, 500)}`), '```');
  return out;
}

function escape(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
