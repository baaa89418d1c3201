/**
 * Monorepo task runners print each package's output behind a prefix: Turborepo `@scope/pkg:test: ` and pnpm's
 * recursive runs `packages/core test: `. Rules read the tool's own line, so the prefix goes first. The script name
 * must start with a letter, so `tests/test_x.py:12: AssertionError` keeps its path and line.
 */
const TURBO = /^(?:@[\w.-]+\/)?[\w.-]+:[A-Za-z][\w-]*(?::[A-Za-z][\w-]*)*: /;
const PNPM_RECURSIVE = /^(?:[\w@.-]+\/)+[\w@.-]+ [A-Za-z][\w:-]*: /;

export function stripTaskPrefix(text: string): string {
  const match = TURBO.exec(text) ?? PNPM_RECURSIVE.exec(text);
  return match === null ? text : text.slice(match[0].length);
}
