import type { ReportRepository, ReportRun } from '../db/index.js';
import { isErrorType, type ErrorType } from '../domain/error-types.js';
import { INSTANCE_HEALTH, INSTANCE_LIFECYCLE, OUTCOMES, type InstanceHealth, type InstanceLifecycle, type Outcome, type SubmissionState, type Verdict } from '../domain/states.js';
import { invalidInput, notFound } from '../errors.js';
import { buildCiRepairReport, type CiInstance, type CiRepairReport, type CiRunInput, type CiSubmissionOutcome } from '../scoring/index.js';

/** What the report service needs. */
export interface ReportDeps {
  repos: { reports: ReportRepository };
}

/** Options of {@link loadCiRepairInputs} and {@link loadCiRepairReport}. */
export interface LoadReportOptions {
  /** Score instances that are not active (suspect, quarantined) too (default false). */
  includeUnhealthy?: boolean;
  /** Score every instance of this dataset (default: the datasets the runs' submissions touch). */
  dataset?: string;
}

const MAX_RUNS = 20;

const errorTypes = (labels: readonly string[]): ErrorType[] => labels.filter(isErrorType);
const isOutcome = (value: string | null): value is Outcome => value !== null && (OUTCOMES as readonly string[]).includes(value);
const lifecycle = (value: string): InstanceLifecycle => (INSTANCE_LIFECYCLE as readonly string[]).includes(value) ? (value as InstanceLifecycle) : 'active';
const health = (value: string): InstanceHealth => (INSTANCE_HEALTH as readonly string[]).includes(value) ? (value as InstanceHealth) : 'unknown';

/** Checks the run ids (distinct, at most 20) and returns the runs in the order asked; unknown ids are a 404. */
export async function resolveRuns(deps: ReportDeps, runIds: readonly string[]): Promise<ReportRun[]> {
  if (runIds.length === 0) throw invalidInput('no_runs', 'name at least one run');
  if (runIds.length > MAX_RUNS) throw invalidInput('too_many_runs', `at most ${MAX_RUNS} runs per report`, { runs: runIds.length });
  if (new Set(runIds).size !== runIds.length) throw invalidInput('duplicate_run', 'each run may appear once');
  const found = new Map((await deps.repos.reports.runs(runIds)).map((run) => [run.id, run]));
  return runIds.map((id) => {
    const run = found.get(id);
    if (run === undefined) throw notFound('run', id);
    return run;
  });
}

/** Loads the inputs of buildCiRepairReport for the runs: two queries (instances in scope, submissions of the runs). */
export async function loadCiRepairInputs(
  deps: ReportDeps,
  runIds: readonly string[],
  options: LoadReportOptions = {},
): Promise<{ instances: CiInstance[]; runs: CiRunInput[] }> {
  const runs = await resolveRuns(deps, runIds);
  const [instanceRows, submissionRows] = await Promise.all([
    deps.repos.reports.instancesForRuns(runIds, options.dataset),
    deps.repos.reports.submissionsForRuns(runIds),
  ]);
  const instances = instanceRows.map((row): CiInstance => ({
    id: row.id,
    repo: `${row.repoOwner}/${row.repoName}`,
    labels: errorTypes(row.labels),
    health: health(row.health),
    lifecycle: lifecycle(row.lifecycle),
    lifecycleReason: row.lifecycleReason,
  }));
  const byRun = new Map<string, CiSubmissionOutcome[]>(runs.map((run) => [run.id, []]));
  for (const row of submissionRows) {
    byRun.get(row.runId)?.push({
      instanceId: row.instanceId,
      state: row.state as SubmissionState,
      verdict: row.verdict as Verdict | null,
      ...(isOutcome(row.outcome) ? { outcome: row.outcome } : {}),
      reason: row.reason,
      observedLabels: errorTypes(row.observedLabels),
      createdAt: row.createdAt,
    });
  }
  return { instances, runs: runs.map((run) => ({ id: run.id, label: run.label, submissions: byRun.get(run.id) ?? [] })) };
}

/** The CI-Repair-Bench report of the runs (the first run is the reference of the paired comparisons). */
export async function loadCiRepairReport(deps: ReportDeps, runIds: readonly string[], options: LoadReportOptions = {}): Promise<CiRepairReport> {
  const { instances, runs } = await loadCiRepairInputs(deps, runIds, options);
  return buildCiRepairReport(instances, runs, { includeUnhealthy: options.includeUnhealthy ?? false });
}
