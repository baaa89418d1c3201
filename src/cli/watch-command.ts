import { setTimeout as sleep } from 'node:timers/promises';
import { Command, InvalidArgumentError } from 'commander';
import type { Deps } from '../deps.js';
import type { RunRow } from '../db/index.js';
import { invalidInput } from '../errors.js';
import { runReport } from '../reports/index.js';
import { withDeps, type Io } from './context.js';
import { findRun } from './run-ref.js';
import { terminalOf } from './style.js';
import { progressFrame, progressLine, summarizeProgress, type RunProgress } from './watch-display.js';

/** Exit codes of `watch` and `submit --watch` (docs/cli.md). */
export const WATCH_EXIT = {
  /** Every submission finished with a verdict (passed or failed). */
  complete: 0,
  /** Every submission finished, some without a verdict (infra_error, no_run, cancelled, timed_out, publish_failed). */
  incomplete: 3,
  /** --timeout passed before every submission finished. */
  timedOut: 4,
} as const;

export interface WatchOptions {
  /** Seconds between polls (default 2 on a terminal, 10 otherwise). */
  interval?: number;
  /** Give up after this many seconds (default: wait until every submission finished). */
  timeout?: number;
  json?: boolean;
}

export interface WatchResult {
  runId: string;
  label: string;
  exitCode: number;
  status: 'complete' | 'incomplete' | 'timed_out';
  progress: RunProgress;
}

/** A positive number of seconds (fractions allowed: tests poll fast). */
export const seconds = (value: string): number => {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0 || parsed > 7 * 24 * 3600) throw new InvalidArgumentError('must be a number of seconds > 0');
  return parsed;
};

/**
 * Polls a run until every submission finished (or --timeout): a live display on a terminal, a plain line per
 * change (at least every minute) otherwise, nothing but the final JSON with --json. Ends with the report table.
 */
export async function watchRun(deps: Deps, run: RunRow, io: Io, options: WatchOptions = {}): Promise<WatchResult> {
  const { tty, style } = terminalOf(deps.config.noColor);
  const live = tty && options.json !== true;
  const interval = (options.interval ?? (tty ? 2 : 10)) * 1000;
  const deadline = options.timeout === undefined ? null : Date.now() + options.timeout * 1000;
  let drawn = 0;
  let lastLine = '';
  let lastPrinted = 0;
  for (;;) {
    const rows = await deps.repos.dashboard.runRows(run.id);
    if (rows.length === 0) throw invalidInput('empty_run', `run ${run.label} (${run.id}) has no submissions to watch`);
    const now = new Date();
    const progress = summarizeProgress(rows, now);
    if (live) {
      const frame = progressFrame(run, progress, style);
      io.out(`${drawn > 0 ? `\u001b[${drawn}F\u001b[0J` : ''}${frame.join('\n')}`);
      drawn = frame.length;
    } else if (options.json !== true) {
      const line = progressLine(progress, now);
      const changed = line.slice(25) !== lastLine.slice(25);
      if (changed || now.getTime() - lastPrinted >= 60_000 || progress.finished === progress.total) {
        io.out(line);
        lastLine = line;
        lastPrinted = now.getTime();
      }
    }
    const done = progress.finished === progress.total;
    if (done || (deadline !== null && Date.now() >= deadline)) {
      const status = !done ? 'timed_out' : progress.completed === progress.total ? 'complete' : 'incomplete';
      const exitCode = status === 'complete' ? WATCH_EXIT.complete : status === 'incomplete' ? WATCH_EXIT.incomplete : WATCH_EXIT.timedOut;
      return { runId: run.id, label: run.label, exitCode, status, progress };
    }
    await sleep(deadline === null ? interval : Math.max(0, Math.min(interval, deadline - Date.now())));
  }
}

/** Prints how a watch ended: the report table (text) or one JSON document, and sets the exit code. */
export async function finishWatch(deps: Deps, result: WatchResult, io: Io, json: boolean, extra: Record<string, unknown> = {}): Promise<void> {
  const report = await runReport(deps, [result.runId], { format: json ? 'json' : 'table' });
  if (json) {
    io.out(JSON.stringify({ ...extra, watch: { ...result, report: JSON.parse(report.body) as unknown } }, null, 2));
  } else {
    const ending =
      result.status === 'complete'
        ? `all ${result.progress.total} submissions finished with a verdict`
        : result.status === 'incomplete'
          ? `all ${result.progress.total} submissions finished; ${result.progress.total - result.progress.completed} without a verdict (${Object.entries(result.progress.byOutcome)
              .filter(([outcome]) => !['passed', 'failed', 'patch_failed'].includes(outcome))
              .map(([outcome, n]) => `${outcome} ${n}`)
              .join(', ')})`
          : `stopped by --timeout: ${result.progress.finished} of ${result.progress.total} finished`;
    io.out(`\n${ending}\n\n${report.body.trimEnd()}`);
  }
  process.exitCode = result.exitCode;
}

/** `ci-replay watch <run>`. */
export function registerWatchCommand(program: Command, io: Io): void {
  program
    .command('watch')
    .description('follow a run until every submission finished: live progress on a terminal (plain lines otherwise), then the report table')
    .argument('<run>', 'run id or label')
    .option('--interval <seconds>', 'seconds between polls (default 2 on a terminal, 10 otherwise)', seconds)
    .option('--timeout <seconds>', 'stop waiting after this long (exit 4)', seconds)
    .option('--json', 'print only the final progress and report as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  ci-replay watch my-agent-v2\n  ci-replay watch 0b6c…-uuid --timeout 3600 --json > result.json\n\nExit codes: 0 every submission finished with a verdict, 3 finished but some without a verdict (infra_error, no_run, cancelled, timed_out), 4 --timeout reached, 2 unknown run.',
    )
    .action(async (ref: string, options: { interval?: number; timeout?: number; json?: boolean }) => {
      await withDeps(async (deps) => {
        const run = await findRun(deps.repos, ref);
        const result = await watchRun(deps, run, io, options);
        await finishWatch(deps, result, io, options.json === true);
      });
    });
}
