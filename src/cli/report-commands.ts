import { Command, Option } from 'commander';
import { invalidInput } from '../errors.js';
import { REPORT_VIEWS, RUN_REPORT_FORMATS, runReport, type ReportDeps, type RunReportFormat } from '../reports/index.js';
import type { ReportView } from '../scoring/index.js';
import { withDeps, type Io } from './context.js';

/** Runs work with what reports need (default: the service's dependencies from the environment). */
export type WithReportDeps = <T>(work: (deps: ReportDeps) => Promise<T>) => Promise<T>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const runId = (value: string, previous: string[] = []): string[] => {
  if (!UUID.test(value)) throw invalidInput('invalid_run_id', `${value} is not a run id (UUID)`);
  return [...previous, value];
};

/**
 * `ci-replay report <run...>`: a CI-Repair-Bench report of one run, or several side by side (paired
 * comparisons against the first), printed as a terminal table, Markdown, CSV or JSON; `--format sweep-json`
 * prints SWE-sweep's `sweep info --json` document for the runs' instances with subtasks.
 */
export function registerReportCommands(program: Command, io: Io, open: WithReportDeps = withDeps): void {
  program
    .command('report')
    .description('print the report of one or more runs (several: side by side, compared with the first)')
    .argument('<run...>', 'run ids')
    .addOption(new Option('--by <view>', 'which table').choices(REPORT_VIEWS).default('summary'))
    .addOption(new Option('--format <format>', 'output format').choices(RUN_REPORT_FORMATS).default('table'))
    .option('--include-unhealthy', 'score instances flagged flaky or drifted too', false)
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
}
