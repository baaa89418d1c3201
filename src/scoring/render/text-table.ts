import type { TableModel } from './table-model.js';

const width = (text: string): number => [...text].length;

function pad(text: string, size: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)));
  return align === 'right' ? fill + text : text + fill;
}

/** Renders a table for terminals: columns padded to their widest cell, a dashed rule under the header. */
export function renderTextTable(table: TableModel): string {
  const widths = table.columns.map((column, index) =>
    Math.max(width(column.header), ...table.rows.map((row) => width(row[index] ?? ''))),
  );
  const line = (cells: readonly string[]): string =>
    table.columns
      .map((column, index) => pad(cells[index] ?? '', widths[index] ?? 0, column.align))
      .join('  ')
      .trimEnd();
  const lines = [
    table.title,
    '',
    line(table.columns.map((column) => column.header)),
    widths.map((size) => '-'.repeat(size)).join('  '),
    ...table.rows.map(line),
  ];
  if (table.notes !== undefined && table.notes.length > 0) lines.push('', ...table.notes);
  return `${lines.join('\n')}\n`;
}
