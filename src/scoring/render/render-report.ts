import type { CiRepairReport } from '../ci-repair/report.js';
import { renderCsvTable } from './csv-table.js';
import { renderMarkdownTable } from './markdown-table.js';
import type { TableModel } from './table-model.js';
import { renderTextTable } from './text-table.js';
import { byInstanceTable } from './views/by-instance.js';
import { byRepoTable } from './views/by-repo.js';
import { byTypeTable } from './views/by-type.js';
import { observedTables } from './views/observed.js';
import { comparisonTable, summaryTable } from './views/summary.js';

/** Output formats of {@link renderReport}. */
export type ReportFormat = 'table' | 'markdown' | 'csv' | 'json';

/** Which view: the run summary (default), Table 7 per type, Table 8 per repository, per instance, or observed types. */
export type ReportView = 'summary' | 'type' | 'repo' | 'instance' | 'observed';

/** Options of {@link renderReport}. */
export interface RenderOptions {
  by?: ReportView;
}

function tablesFor(report: CiRepairReport, view: ReportView): TableModel[] {
  switch (view) {
    case 'type':
      return [byTypeTable(report)];
    case 'repo':
      return [byRepoTable(report)];
    case 'instance':
      return [byInstanceTable(report)];
    case 'observed':
      return observedTables(report);
    default:
      return report.comparisons.length === 0 ? [summaryTable(report)] : [summaryTable(report), comparisonTable(report)];
  }
}

function jsonFor(report: CiRepairReport, view: ReportView): unknown {
  const runs = report.runs.map((run) => ({ runId: run.runId, label: run.label }));
  switch (view) {
    case 'type':
      return { runs, labels: report.labels, byType: report.byType };
    case 'repo':
      return { runs, byRepo: report.byRepo };
    case 'instance':
      return { runs, byInstance: report.byInstance };
    case 'observed':
      return { runs, observed: report.observed };
    default:
      return report;
  }
}

/**
 * Renders a CI-Repair-Bench report (one run, or several side by side).
 * - `table`: aligned plain text for terminals; `markdown`: GitHub tables as papers and leaderboards show them;
 * - `csv`: RFC 4180 (CRLF, quoted where needed), the view's main table only (observed: one block per run,
 *   separated by an empty line);
 * - `json`: the report (summary view) or the view's slice, pretty-printed.
 */
export function renderReport(report: CiRepairReport, format: ReportFormat, options: RenderOptions = {}): string {
  const view = options.by ?? 'summary';
  if (format === 'json') return `${JSON.stringify(jsonFor(report, view), null, 2)}\n`;
  const tables = tablesFor(report, view);
  if (format === 'csv') {
    const csvTables = view === 'observed' ? tables : tables.slice(0, 1);
    return csvTables.map(renderCsvTable).join('\r\n');
  }
  const render = format === 'markdown' ? renderMarkdownTable : renderTextTable;
  return tables.map(render).join('\n');
}
