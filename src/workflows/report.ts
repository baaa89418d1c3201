/** Markdown rendering of a standardization report (for the check run summary). */
import type { ReportAction, ReportEntry } from './types.js';

const HEADINGS: ReadonlyArray<readonly [ReportAction, string]> = [
  ['rewrote-trigger', 'Triggers'],
  ['defaulted-input', 'Inputs given defaults'],
  ['removed-job', 'Removed jobs'],
  ['kept-job', 'Jobs kept because others need them'],
  ['trimmed-needs', 'Trimmed needs'],
  ['removed-step', 'Removed steps'],
  ['rewrote-step', 'Rewritten steps'],
  ['rewrote-guard', 'Rewritten guards'],
  ['reduced-matrix', 'Reduced matrices'],
  ['kept-matrix', 'Matrices kept whole'],
  ['rewrote-runner', 'Rewritten runners'],
  ['replaced-secret', 'Secrets'],
  ['removed-setting', 'Removed settings'],
  ['added-setting', 'Added settings'],
  ['pinned-dependencies', 'Dependency pinning'],
  ['package-index', 'Package index services'],
  ['deleted-workflow', 'Deleted workflow files'],
  ['lint-finding', 'actionlint findings'],
];

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** Renders the report as markdown: one section per action, in a fixed order. */
export function renderReport(report: readonly ReportEntry[]): string {
  if (report.length === 0) return '## Workflow standardization\n\nNothing was changed.\n';
  const lines = ['## Workflow standardization', ''];
  for (const [action, heading] of HEADINGS) {
    const entries = report.filter((entry) => entry.action === action);
    if (entries.length === 0) continue;
    lines.push(`### ${heading} (${entries.length})`, '');
    if (entries.some((entry) => entry.rule !== undefined)) {
      // Removals name the rule that removed them and what showed it.
      lines.push('| Target | Rule | Reason | Evidence |', '| --- | --- | --- | --- |');
      for (const entry of entries) {
        lines.push(`| \`${escapeCell(entry.target)}\` | ${entry.rule ?? ''} | ${escapeCell(entry.reason)} | ${entry.evidence === undefined ? '' : `\`${escapeCell(entry.evidence).replaceAll('`', "'")}\``} |`);
      }
    } else {
      lines.push('| Target | Reason |', '| --- | --- |');
      for (const entry of entries) lines.push(`| \`${escapeCell(entry.target)}\` | ${escapeCell(entry.reason)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
