export { loadCiRepairInputs, loadCiRepairReport, resolveRuns, type ReportDeps, type LoadReportOptions } from './load-ci-report.js';
export { loadSweepReport, gradeStoredTrial, parseSubtasks, type SweepSubtask } from './load-sweep-report.js';
export { runReport, REPORT_CONTENT_TYPES, RUN_REPORT_FORMATS, REPORT_VIEWS, type RunReportFormat, type RunReportOptions, type RenderedReport } from './run-report.js';
