import type { LogLine } from './types.js';

/**
 * Monorepo task runners print each package's output behind a prefix: Turborepo `@scope/pkg:test: ` and pnpm's
 * recursive runs `packages/core test: `. Rules read the tool's own line, so the prefix goes first. The script name
 * must start with a letter, so `tests/test_x.py:12: AssertionError` keeps its path and line.
 */
const TURBO = /^(?:@[\w.-]+\/)?[\w.-]+:[A-Za-z][\w-]*(?::[A-Za-z][\w-]*)*: /;
const PNPM_RECURSIVE = /^(?:[\w@.-]+\/)+[\w@.-]+ [A-Za-z][\w:-]*: /;
/** A runner prefixes every line of a package's output: one seen fewer times is the tool's own text (`ERROR:root: `). */
const MIN_REPEATS = 3;

const prefixOf = (text: string): string | undefined => (TURBO.exec(text) ?? PNPM_RECURSIVE.exec(text))?.[0];

/** The lines with the task prefixes that recur in them (at least MIN_REPEATS times) removed. */
export function stripTaskPrefixes(lines: readonly LogLine[]): LogLine[] {
  const prefixes = lines.map(({ text }) => prefixOf(text));
  const counts = new Map<string, number>();
  for (const prefix of prefixes) if (prefix !== undefined) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  return lines.map((entry, i) => {
    const prefix = prefixes[i];
    return prefix === undefined || (counts.get(prefix) ?? 0) < MIN_REPEATS ? entry : { line: entry.line, text: entry.text.slice(prefix.length) };
  });
}
