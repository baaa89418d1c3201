import type { TableModel } from './table-model.js';

const escapeCell = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** Renders a GitHub-flavoured markdown table under a `###` heading, numbers right-aligned. */
export function renderMarkdownTable(table: TableModel): string {
  const row = (cells: readonly string[]): string =>
    `| ${table.columns.map((_, index) => escapeCell(cells[index] ?? '')).join(' | ')} |`;
  const rule = `|${table.columns.map((column) => (column.align === 'right' ? '---:' : ':---')).join('|')}|`;
  const lines = [`### ${table.title}`, '', row(table.columns.map((column) => column.header)), rule, ...table.rows.map(row)];
  if (table.notes !== undefined && table.notes.length > 0) lines.push('', ...table.notes.map((note) => `_${note}_`));
  return `${lines.join('\n')}\n`;
}
