// Renders one @astral-sh/ruff-wasm-nodejs diagnostic in Ruff's default `full` output format as printed by ruff
// 0.12.9–0.15.x (crates/ruff/tests/snapshots/lint__output_format_full.snap at 0.12.9; ruff_db's render.rs and the
// vendored annotate-snippets): a `CODE [*] message` header (`invalid-syntax: message` for syntax errors), a
// ` --> path:row:col` line, the source snippet with two lines of context either side (leading and trailing blank
// context lines dropped), carets under the primary range, then one `help:`/`info:` line per sub-diagnostic and a
// blank line. Ruff >= 0.16 also prints the fix as a diff after `help:`; that is not rendered.
// Lines and columns are the wasm package's UTF-16 ones, which index JavaScript strings directly.

const CONTEXT = 2;
const TAB = '    ';

/** Display text of a source line as annotate-snippets prints it (tabs as four spaces). */
const shown = (text) => text.replaceAll('\t', TAB);
/** Display width of the first `units` UTF-16 units of `text`. */
const widthOf = (text, units) => shown(text.slice(0, units)).length;

/**
 * @param {{ code: string | null, message: string, fix: { message: string | null } | null,
 *   start_location: { row: number, column: number }, end_location: { row: number, column: number },
 *   annotations?: { primary: boolean, message: string | null }[],
 *   subDiagnostics?: { severity: string, message: string }[] }} d
 * @param {string} path the path printed after `-->`
 * @param {string} source the file's text
 * @returns {string} the diagnostic's lines, each ending in `\n`, the trailing blank line included
 */
export function renderFull(d, path, source) {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const lineText = (n) => lines[n - 1] ?? '';
  const blank = (n) => lineText(n).trim() === '';
  const start = d.start_location;
  const end = d.end_location;
  const syntax = d.code === null || d.code === 'invalid-syntax';
  const header = syntax ? `invalid-syntax: ${d.message}` : `${d.code}${d.fix ? ' [*]' : ''} ${d.message}`;

  // A range ending at column 1 of the next line (one that takes in the line break) is shown on its first line.
  const endRow = end.row > start.row && end.column === 1 ? end.row - 1 : end.row;
  const endCol = endRow === end.row ? end.column : lineText(endRow).length + 1;
  let first = Math.max(1, start.row - CONTEXT);
  while (first < start.row && blank(first)) first++;
  let last = Math.min(Math.max(lines.length, endRow), endRow + CONTEXT);
  while (last > endRow && blank(last)) last--;
  const width = String(last).length;
  const pad = ' '.repeat(width);
  const label = d.annotations?.find((a) => a.primary)?.message;
  const tail = label ? ` ${label}` : '';

  const out = [header, `${pad}--> ${path}:${start.row}:${start.column}`, `${pad} |`];
  const source_ = (n, prefix) => {
    const text = `${prefix}${shown(lineText(n))}`.trimEnd();
    out.push(text === '' ? `${String(n).padStart(width)} |` : `${String(n).padStart(width)} | ${text}`);
  };
  if (endRow === start.row) {
    const from = widthOf(lineText(start.row), start.column - 1);
    const to = widthOf(lineText(start.row), endCol - 1);
    for (let n = first; n <= last; n++) {
      source_(n, '');
      if (n === start.row) out.push(`${pad} | ${' '.repeat(from)}${'^'.repeat(Math.max(1, to - from))}${tail}`);
    }
  } else {
    // Multi-line ranges: annotate-snippets draws a bar in a two-column margin left of the source.
    const startText = lineText(start.row);
    const indent = startText.length - startText.trimStart().length;
    const opensAtIndent = start.column - 1 <= indent;
    for (let n = first; n <= last; n++) {
      if (n === start.row) {
        source_(n, opensAtIndent ? '/ ' : '  ');
        if (!opensAtIndent) out.push(`${pad} |  ${'_'.repeat(widthOf(startText, start.column - 1) + 1)}^`);
      } else if (n > start.row && n <= endRow) {
        source_(n, '| ');
        if (n === endRow) out.push(`${pad} | |${'_'.repeat(Math.max(0, widthOf(lineText(n), endCol - 1)))}^${tail}`);
      } else {
        source_(n, '  ');
      }
    }
  }
  out.push(`${pad} |`);
  const subs = d.subDiagnostics ?? [];
  for (const s of subs) out.push(`${s.severity}: ${s.message}`);
  if (d.fix?.message && !subs.some((s) => s.severity === 'help')) out.push(`help: ${d.fix.message}`);
  out.push('');
  return out.map((l) => `${l}\n`).join('');
}
