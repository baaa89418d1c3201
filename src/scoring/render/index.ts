export { renderReport, type ReportFormat, type ReportView, type RenderOptions } from './render-report.js';
export { renderTextTable } from './text-table.js';
export { renderMarkdownTable } from './markdown-table.js';
export { renderCsvTable, csvField } from './csv-table.js';
export type { TableModel, Align } from './table-model.js';
export { renderSweCiRun, renderSweCiTrack } from './render-tracks.js';
export { sweCiRunTable, sweCiTrackTable, type SweCiRunTableInput, type SweCiTrackTableInput } from './views/swe-ci.js';
