import type { DashboardRunRow } from '../db/index.js';
import { isTerminal, type SubmissionState } from '../domain/states.js';
import { outcomeColour, type Style } from './style.js';

/** Outcomes that are a verdict on the patch; any other end (infra_error, no_run, cancelled, timed_out) is not. */
const VERDICT_OUTCOMES = new Set(['passed', 'failed', 'patch_failed']);
/** Completions in this window give the observed rate. */
const RATE_WINDOW_MS = 15 * 60_000;

export interface RunProgress {
  total: number;
  finished: number;
  /** Finished with a verdict (passed, failed, patch_failed). */
  completed: number;
  byState: Record<string, number>;
  byOutcome: Record<string, number>;
  /** Submissions finished per minute, observed over the last 15 minutes (or since the run's first submission). */
  perMinute: number | null;
  /** Seconds until every submission is finished at the observed rate; null while no rate is known. */
  etaSeconds: number | null;
  latestFailures: { submissionId: string; instanceId: string; outcome: string; reason: string | null; errorTypes: string[]; completedAt: string | null }[];
}

const count = (values: string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
};

export function summarizeProgress(rows: DashboardRunRow[], now: Date = new Date()): RunProgress {
  const finishedRows = rows.filter((row) => isTerminal(row.state as SubmissionState));
  const byOutcome = count(finishedRows.map((row) => row.outcome ?? row.state));
  const first = rows.reduce((min, row) => Math.min(min, row.createdAt.getTime()), now.getTime());
  const windowStart = Math.max(first, now.getTime() - RATE_WINDOW_MS);
  const recent = finishedRows.filter((row) => row.completedAt !== null && row.completedAt.getTime() >= windowStart).length;
  const minutes = (now.getTime() - windowStart) / 60_000;
  const perMinute = recent > 0 && minutes > 0 ? recent / minutes : null;
  const remaining = rows.length - finishedRows.length;
  const failures = finishedRows
    .filter((row) => row.outcome !== 'passed')
    .sort((a, b) => (b.completedAt?.getTime() ?? 0) - (a.completedAt?.getTime() ?? 0))
    .slice(0, 5);
  return {
    total: rows.length,
    finished: finishedRows.length,
    completed: finishedRows.filter((row) => VERDICT_OUTCOMES.has(row.outcome ?? '')).length,
    byState: count(rows.map((row) => row.state)),
    byOutcome,
    perMinute,
    etaSeconds: remaining === 0 ? 0 : perMinute === null ? null : Math.round((remaining / perMinute) * 60),
    latestFailures: failures.map((row) => ({
      submissionId: row.submissionId,
      instanceId: row.instanceId,
      outcome: row.outcome ?? row.state,
      reason: row.reason,
      errorTypes: row.observedLabels,
      completedAt: row.completedAt?.toISOString() ?? null,
    })),
  };
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, '0')}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
}

const pairs = (counts: Record<string, number>, colour: (key: string) => (text: string) => string = () => (text) => text): string =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => colour(key)(`${key} ${value}`))
    .join(' · ') || '-';

const rateText = (progress: RunProgress): string =>
  `${progress.perMinute === null ? 'rate unknown' : `${progress.perMinute.toFixed(1)}/min`}, ETA ${progress.etaSeconds === null ? 'unknown' : formatDuration(progress.etaSeconds)}`;

/** One plain line (logs, pipes, CI). */
export function progressLine(progress: RunProgress, now: Date = new Date()): string {
  return `${now.toISOString()} ${progress.finished}/${progress.total} finished; states: ${pairs(progress.byState)}; outcomes: ${pairs(progress.byOutcome)}; ${rateText(progress)}`;
}

/** The live display on a terminal: a bar, counts by state and outcome, rate and ETA, the latest failures. */
export function progressFrame(run: { id: string; label: string }, progress: RunProgress, style: Style, width = 30): string[] {
  const share = progress.total === 0 ? 0 : progress.finished / progress.total;
  const filled = Math.round(share * width);
  const bar = `[${style.green('#'.repeat(filled))}${'.'.repeat(width - filled)}]`;
  const lines = [
    `${style.bold(`run ${run.label}`)} ${style.dim(run.id)}`,
    `${bar} ${progress.finished}/${progress.total} finished (${Math.round(share * 100)}%)`,
    `states:   ${pairs(progress.byState)}`,
    `outcomes: ${pairs(progress.byOutcome, (key) => outcomeColour(style, key))}`,
    `${rateText(progress)}`,
  ];
  if (progress.latestFailures.length > 0) {
    lines.push('latest failures:');
    for (const failure of progress.latestFailures) {
      const types = failure.errorTypes.length === 0 ? '' : ` [${failure.errorTypes.join(', ')}]`;
      lines.push(`  ${failure.submissionId.slice(0, 8)} ${failure.instanceId} ${outcomeColour(style, failure.outcome)(failure.outcome)}${types}${failure.reason === null ? '' : ` ${style.dim(failure.reason)}`}`);
    }
  }
  return lines;
}
