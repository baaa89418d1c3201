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

/**
 * Other CI systems' line prefixes, kept in logs copied from them: Jenkins's timestamper (`[2022-11-15T05:26:40.684Z] `),
 * Vercel's and Netlify's build logs (`17:27:42.618 | ` or `05:40:53.148  `, `11:17:03 AM: `), Flutter's verbose output
 * (`[  +12 ms] `, `[        ] `, nested once when a tool's output passes through `flutter build -v`), lerna streaming concurrently's output
 * (`vuetify: [eslint] `), fastlane's (`[08:38:44]: `, with xcpretty's `▸ ` before a build's lines), TeamCity's
 * (`[12:54:32][npm install] `) and Buildkite's as its web view copies them (`_bk;t=1669812953407` and a ` | `
 * gutter; in a raw log the timestamp is an escape sequence, which normalizeLine drops). Timestamps differ line by
 * line, so these count by their kind.
 */
const STAMPED: readonly { kind: string; pattern: RegExp }[] = [
  { kind: 'jenkins', pattern: /^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z\] / },
  { kind: 'vercel', pattern: /^\d\d:\d\d:\d\d\.\d{3}(?: \| ?|  )/ },
  { kind: 'netlify', pattern: /^\d{1,2}:\d\d:\d\d (?:AM|PM): / },
  { kind: 'fastlane', pattern: /^\[\d\d:\d\d:\d\d\]: (?:▸ )?/ },
  { kind: 'teamcity', pattern: /^\[\d\d:\d\d:\d\d\]\[[^\]]{1,200}\] / },
  { kind: 'buildkite', pattern: /^_bk;t=\d+(?:\s*\| ?)?/ },
  { kind: 'flutter', pattern: /^(?:\[(?: {8}|[ +]{0,6}\d{1,6} ms)\] ){1,2}/ },
];
const LERNA_CONCURRENTLY = /^[\w@./-]+: \[[\w:.-]+\] /;

/** The prefix a line opens with, and the key its recurrences are counted by. */
function prefixOf(text: string): { key: string; length: number } | undefined {
  const task = TURBO.exec(text) ?? PNPM_RECURSIVE.exec(text) ?? LERNA_CONCURRENTLY.exec(text);
  if (task !== null) return { key: task[0], length: task[0].length };
  const c = text.charCodeAt(0);
  if (c !== 91 && c !== 95 && (c < 48 || c > 57)) return undefined;
  for (const { kind, pattern } of STAMPED) {
    const m = pattern.exec(text);
    if (m !== null) return { key: kind, length: m[0].length };
  }
  return undefined;
}

/** The lines with the prefixes that recur in them (at least MIN_REPEATS times) removed. */
export function stripTaskPrefixes(lines: readonly LogLine[]): LogLine[] {
  const prefixes = lines.map(({ text }) => prefixOf(text));
  const counts = new Map<string, number>();
  for (const prefix of prefixes) if (prefix !== undefined) counts.set(prefix.key, (counts.get(prefix.key) ?? 0) + 1);
  return lines.map((entry, i) => {
    const prefix = prefixes[i];
    return prefix === undefined || (counts.get(prefix.key) ?? 0) < MIN_REPEATS ? entry : { line: entry.line, text: entry.text.slice(prefix.length) };
  });
}
