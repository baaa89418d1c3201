import { renderCsvTable } from './csv-table.js';
import { renderMarkdownTable } from './markdown-table.js';
import type { ReportFormat } from './render-report.js';
import type { TableModel } from './table-model.js';
import { renderTextTable } from './text-table.js';
import { sweCiRunTable, sweCiTrackTable, type SweCiRunTableInput, type SweCiTrackTableInput } from './views/swe-ci.js';

function render(value: unknown, table: () => TableModel, format: ReportFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(value, null, 2)}\n`;
    case 'csv':
      return renderCsvTable(table());
    case 'markdown':
      return renderMarkdownTable(table());
    default:
      return renderTextTable(table());
  }
}

/**
 * Renders a run's SWE-CI track summary: one row per task, then the means (EvoScore, solved %, zero-regression %).
 * `csv` omits the title and notes (RFC 4180, CRLF); `json` is the summary itself, pretty-printed.
 */
export const renderSweCiRun = (summary: SweCiRunTableInput, format: ReportFormat): string => render(summary, () => sweCiRunTable(summary), format);

/** Renders one SWE-CI track: one row per round; its scores are the notes of `table` and `markdown` (not in CSV). */
export const renderSweCiTrack = (track: SweCiTrackTableInput, format: ReportFormat): string => render(track, () => sweCiTrackTable(track), format);
