import { REPORT_CONTENT_TYPES } from '../reports/index.js';
import { renderSweCiRun, renderSweCiTrack, type ReportFormat } from '../scoring/index.js';
import type { SweCiRunReport } from './service.js';
import type { TrackView } from './track-view.js';

/** Output formats of track summaries (the CI-Repair-Bench report's, without sweep-json). */
export const TRACK_FORMATS = ['table', 'markdown', 'csv', 'json'] as const satisfies readonly ReportFormat[];

/** A rendered track summary and its media type. */
export interface RenderedTracks {
  body: string;
  contentType: string;
}


/** A run's SWE-CI summary in a format (used by the HTTP API and the CLI). */
export const renderRunTracks = (report: SweCiRunReport, format: ReportFormat): RenderedTracks => ({
  body: renderSweCiRun(report, format),
  contentType: REPORT_CONTENT_TYPES[format],
});

/** One track in a format. */
export const renderTrack = (view: TrackView, format: ReportFormat): RenderedTracks => ({
  body: renderSweCiTrack(view, format),
  contentType: REPORT_CONTENT_TYPES[format],
});
