import type { LogLine } from './types.js';

const LEAD = /^[ \t]*/;

/**
 * Output quoted in an issue or a pull request is often indented as a whole (a list item's code block, a quote cut
 * from an indented log): rules anchored at the tool's own line start would miss every line of it. When every
 * non-blank line of a step opens with the same whitespace, that common indent goes; relative indents stay. A
 * benchmark tail cut inside indented output keeps its indent: its runner's exit line is not indented.
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
  if (common === undefined || common === '') return lines;
  const cut = common.length;
  return lines.map((l) => (l.text.length >= cut && l.text.startsWith(common) ? { line: l.line, text: l.text.slice(cut) } : l));
}
