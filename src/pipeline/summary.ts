import type { FailureLabelRow, JobWithSteps, SubmissionSummary } from '../db/index.js';

const MAX_SUMMARY = 65_000;

/** The result summary shown on the check run (and by `ci-replay run-local`): verdict, per-job table, error types with evidence. */
export function renderResultSummary(submission: SubmissionSummary, jobs: JobWithSteps[], labels: FailureLabelRow[], verdict: string, detailsUrl: string): string {
  const lines = [`## ci-replay: ${verdict}`, '', `Instance \`${submission.instanceId}\`, submission [\`${submission.id}\`](${detailsUrl}), kind ${submission.kind}.`, ''];
  lines.push('| Job | Result | Failed step | Error types |', '|---|---|---|---|');
  for (const job of jobs) {
    const types = [...new Set(job.failureLabels.map((label) => label.type))].join(', ');
    lines.push(`| ${escape(job.name)} | ${job.conclusion ?? job.status} | ${escape(job.failedStep ?? '')} | ${types} |`);
  }
  if (labels.length > 0) {
    lines.push('', '### Why it failed');
    for (const label of labels) {
      const evidence = Array.isArray(label.evidence) ? (label.evidence as { text?: string; startLine?: number }[]) : [];
      lines.push('', `**${label.type}**${label.tool === null ? '' : ` (${label.tool})`}${label.stepName === null ? '' : ` in step "${escape(label.stepName)}"`}`);
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

function escape(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
