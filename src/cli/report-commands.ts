import { Command, Option } from 'commander';
import { invalidInput } from '../errors.js';
import { REPORT_VIEWS, RUN_REPORT_FORMATS, runReport, type ReportDeps, type RunReportFormat } from '../reports/index.js';
import type { ReportFormat, ReportView } from '../scoring/index.js';
import { createTrackService, renderRunTracks, renderTrack, TRACK_FORMATS, type TrackService } from '../tracks/index.js';
import { withDeps, type Io } from './context.js';

/** Runs work with what reports need (default: the service's dependencies from the environment). */
export type WithReportDeps = <T>(work: (deps: ReportDeps) => Promise<T>) => Promise<T>;

/** Runs work with a track service (default: built from the service's dependencies, as the HTTP API has it). */
export type WithTrackService = <T>(work: (tracks: Pick<TrackService, 'get' | 'runSummary'>) => Promise<T>) => Promise<T>;

const withTrackService: WithTrackService = (work) =>
  withDeps((deps) =>
    work(
      createTrackService({
        repos: deps.repos,
        mirrors: deps.mirrors,
        queues: deps.queues,
        logger: deps.logger,
        patchMaxBytes: deps.config.limits.patchMaxBytes,
        maxRounds: deps.config.tracks.maxRounds,
      }),
    ),
  );

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const uuid = (value: string, what: 'run' | 'track'): string => {
  if (!UUID.test(value)) throw invalidInput(`invalid_${what}_id`, `${value} is not a ${what} id (UUID)`);
  return value;
};

const runId = (value: string, previous: string[] = []): string[] => [...previous, uuid(value, 'run')];

const gammaOf = (value: string): number => {
  const gamma = Number(value);
  if (value.trim() === '' || !Number.isFinite(gamma) || gamma <= 0 || gamma > 100) throw invalidInput('invalid_gamma', `--gamma ${value}: must be a number in (0, 100]`);
  return gamma;
};

/**
 * `ci-replay report <run...>`: a CI-Repair-Bench report of one run, or several side by side (paired
 * comparisons against the first), printed as a terminal table, Markdown, CSV or JSON; `--format sweep-json`
 * prints SWE-sweep's `sweep info --json` document for the runs' instances with subtasks.
 * `ci-replay tracks <run>` and `ci-replay track <track>`: a run's SWE-CI track summary, or one track, in the same formats.
 */
export function registerReportCommands(program: Command, io: Io, open: WithReportDeps = withDeps, openTracks: WithTrackService = withTrackService): void {
  program
    .command('report')
    .description('print the report of one or more runs (several: side by side, compared with the first)')
    .argument('<run...>', 'run ids')
    .addOption(new Option('--by <view>', 'which table').choices(REPORT_VIEWS).default('summary'))
    .addOption(new Option('--format <format>', 'output format').choices(RUN_REPORT_FORMATS).default('table'))
    .option('--include-unhealthy', 'score instances flagged flaky, drifted or unreplayable too', false)
    .option('--dataset <name>', "score every instance of this dataset (default: the datasets of the runs' submissions)")
    .action(async (runs: string[], options: { by: ReportView; format: RunReportFormat; includeUnhealthy: boolean; dataset?: string }) => {
      const ids = runs.reduce<string[]>((list, value) => runId(value, list), []);
      const rendered = await open((deps) =>
        runReport(deps, ids, {
          by: options.by,
          format: options.format,
          includeUnhealthy: options.includeUnhealthy,
          ...(options.dataset !== undefined ? { dataset: options.dataset } : {}),
        }),
      );
      io.out(rendered.body);
    });

  program
    .command('tracks')
    .description("print a run's SWE-CI track summary: per task, then the means (EvoScore, solved, zero-regression)")
    .argument('<run>', 'run id')
    .option('--gamma <gamma>', 'EvoScore weight base γ', '1')
    .addOption(new Option('--format <format>', 'output format').choices(TRACK_FORMATS).default('table'))
    .action(async (run: string, options: { gamma: string; format: ReportFormat }) => {
      const id = uuid(run, 'run');
      const gamma = gammaOf(options.gamma);
      const summary = await openTracks((tracks) => tracks.runSummary(id, { gamma }));
      io.out(renderRunTracks(summary, options.format).body);
    });

  program
    .command('track')
    .description('print one SWE-CI track: per round, passed count and normalized change; its scores')
    .argument('<track>', 'track id')
    .option('--gamma <gamma>', 'EvoScore weight base γ', '1')
    .addOption(new Option('--format <format>', 'output format').choices(TRACK_FORMATS).default('table'))
    .action(async (track: string, options: { gamma: string; format: ReportFormat }) => {
      const id = uuid(track, 'track');
      const gamma = gammaOf(options.gamma);
      const view = await openTracks((tracks) => tracks.get(id, { gamma }));
      io.out(renderTrack(view, options.format).body);
    });
}
