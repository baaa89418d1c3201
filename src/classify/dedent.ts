import type { LogLine } from './types.js';

const LEAD = /^[ \t]*/;

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
