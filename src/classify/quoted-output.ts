import type { LogLine } from './types.js';

const LEAD = /^[ \t]*/;
const QUOTE = /^\s*>(?: |$)/;
const GRADLE_TASK = /^> Task :/;

/**
 * Output quoted in an issue or a pull request is often indented as a whole (a list item's code block, a quote cut
 * from an indented log): rules anchored at the tool's own line start would miss every line of it. The longest
 * whitespace prefix that every non-blank line of a step shares goes; relative indents stay. A GitHub log's failing
 * step ends with the runner's unindented `##[error]Process completed …`, and a benchmark tail with its exit line, so
 * only pasted output without them is changed.
 */
export function dedentLines(lines: readonly LogLine[]): readonly LogLine[] {
  let common: string | undefined;
  for (const { text } of lines) {
    if (text.trim() === '') continue;
    const lead = LEAD.exec(text)?.[0] ?? '';
    if (common === undefined) {
      common = lead;
    } else if (!lead.startsWith(common)) {
      let n = 0;
      while (n < common.length && n < lead.length && common[n] === lead[n]) n++;
      common = common.slice(0, n);
    }
    if (common === '') return lines;
  }
  if (common === undefined) return lines;
  const prefix = common;
  return lines.map((l) => (l.text.startsWith(prefix) ? { line: l.line, text: l.text.slice(prefix.length) } : l));
}

/**
 * Output quoted as a Markdown block quote: every non-blank line opens with `>`. Read first, before the tool's own
 * prefixes (a quoted TeamCity or Jenkins log). Gradle's `> Task :x` lines are Gradle's: a step that has one is left as
 * it is.
 */
export function unquoteLines(lines: readonly LogLine[]): readonly LogLine[] {
  let quoted = 0;
  for (const { text } of lines) {
    if (text.trim() === '') continue;
    if (!QUOTE.test(text) || GRADLE_TASK.test(text)) return lines;
    quoted++;
  }
  return quoted < 2 ? lines : lines.map((l) => (QUOTE.test(l.text) ? { line: l.line, text: l.text.replace(QUOTE, '') } : l));
}
