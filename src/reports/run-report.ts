import { renderReport, type CiRepairReport, type ReportFormat, type ReportView } from '../scoring/index.js';
import { loadCiRepairReport, type ReportDeps } from './load-ci-report.js';
import { loadSweepReport } from './load-sweep-report.js';

/** Report formats: the renderer's, plus SWE-sweep's `sweep info --json` document. */
export type RunReportFormat = ReportFormat | 'sweep-json';
export const RUN_REPORT_FORMATS = ['table', 'markdown', 'csv', 'json', 'sweep-json'] as const satisfies readonly RunReportFormat[];
export const REPORT_VIEWS = ['summary', 'type', 'repo', 'instance', 'observed'] as const satisfies readonly ReportView[];

/** Options of {@link runReport}. */
export interface RunReportOptions {
  includeUnhealthy?: boolean;
  by?: ReportView;
  format?: RunReportFormat;
  dataset?: string;
}

/** A rendered report. */
export interface RenderedReport {
  body: string;
  contentType: string;
  /** The computed CI-Repair-Bench report (absent for sweep-json). */
  report?: CiRepairReport;
}

/** The media type of each report format (also used for SWE-CI track summaries). */
export const REPORT_CONTENT_TYPES: Record<RunReportFormat, string> = {
  table: 'text/plain; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json; charset=utf-8',
  'sweep-json': 'application/json; charset=utf-8',
};

/** Loads, computes and renders the report of one or more runs (used by the HTTP API and the CLI). */
export async function runReport(deps: ReportDeps, runIds: readonly string[], options: RunReportOptions = {}): Promise<RenderedReport> {
  const format = options.format ?? 'json';
  if (format === 'sweep-json') {
    const sweep = await loadSweepReport(deps, runIds);
    return { body: `${JSON.stringify(sweep, null, 2)}\n`, contentType: REPORT_CONTENT_TYPES[format] };
  }
  const report = await loadCiRepairReport(deps, runIds, {
    includeUnhealthy: options.includeUnhealthy ?? false,
    ...(options.dataset !== undefined ? { dataset: options.dataset } : {}),
  });
  return { body: renderReport(report, format, { by: options.by ?? 'summary' }), contentType: REPORT_CONTENT_TYPES[format], report };
}
