import type { TableModel } from './table-model.js';

/** Quotes a field as RFC 4180 requires: when it holds a comma, a double quote, CR or LF; quotes doubled. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Renders a table as RFC 4180 CSV: a header record, CRLF line breaks (title and notes omitted). */
export function renderCsvTable(table: TableModel): string {
  const record = (cells: readonly string[]): string => table.columns.map((_, index) => csvField(cells[index] ?? '')).join(',');
  return [record(table.columns.map((column) => column.header)), ...table.rows.map(record)].map((line) => `${line}\r\n`).join('');
}
