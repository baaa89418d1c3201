import type { ProtectionRecord } from './protect-patch.js';

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** Markdown for the standardization report: the policy, every reverted path and why, and protected edits kept. */
export function renderProtection(record: ProtectionRecord): string {
  const lines = ['## Protected paths', ''];
  if (record.notApplied !== undefined) return [...lines, `Policy \`${record.policy}\`; not applied: ${record.notApplied}.`, ''].join('\n');
  lines.push(`Policy \`${record.policy}\`: ${record.reverted.length === 0 ? 'no edit of the patch was reverted.' : `${record.reverted.length} reverted.`}`, '');
  if (record.reverted.length > 0) {
    lines.push('| Reverted | Why |', '| --- | --- |', ...record.reverted.map((entry) => `| \`${cell(entry.path)}\` | ${cell(entry.why)} |`), '');
  }
  if (record.kept.length > 0) {
    lines.push('| Kept (protected) | Why |', '| --- | --- |', ...record.kept.map((entry) => `| \`${cell(entry.path)}\` | ${cell(entry.why)} |`), '');
  }
  return lines.join('\n');
}
