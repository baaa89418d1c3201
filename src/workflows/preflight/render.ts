/** The preflight's blockers as markdown (standardization report, check run) and as one line (error message). */
import type { Blocker } from './types.js';

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

/** A `## Preflight` section: one row per blocker, or a line saying there are none. */
export function renderBlockers(backend: string, blockers: readonly Blocker[]): string {
  if (blockers.length === 0) return `## Preflight (${backend} backend)\n\nNothing in the workflow is beyond what this backend can run.\n`;
  const lines = [
    `## Preflight (${backend} backend)`,
    '',
    `Not replayable on this backend: ${blockers.length} blocker${blockers.length === 1 ? '' : 's'}. Nothing was pushed or run.`,
    '',
    '| Blocker | Job | Step | Why | Evidence |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const blocker of blockers) {
    const evidence = blocker.evidence === undefined ? '' : `\`${escapeCell(blocker.evidence)}\``;
    lines.push(`| \`${blocker.code}\` | \`${escapeCell(blocker.job)}\` | ${escapeCell(blocker.step ?? '')} | ${escapeCell(blocker.message)} | ${evidence} |`);
  }
  return `${lines.join('\n')}\n`;
}

/** One line for the submission's error message: the count and the distinct blocker codes. */
export function summarizeBlockers(backend: string, blockers: readonly Blocker[]): string {
  const codes = [...new Set(blockers.map((blocker) => blocker.code))];
  return `not replayable on the ${backend} backend: ${blockers.length} blocker${blockers.length === 1 ? '' : 's'} (${codes.join(', ')}); first: ${blockers[0]?.message ?? ''}`;
}
