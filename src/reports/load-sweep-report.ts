import type { StoredTestOutcome, SweepSubmission } from '../db/index.js';
import { isTerminal, type SubmissionState } from '../domain/states.js';
import { gradeSweepTrial, sweepSummaryJson, type SweepSummaryJson, type SweepTrialOutcome, type TestOutcome } from '../scoring/index.js';
import { resolveRuns, type ReportDeps } from './load-ci-report.js';

/** A SWE-sweep subtask as stored in Instance.subtasks. */
export interface SweepSubtask {
  id: string;
  testPatch: string;
  tests: string[];
}

/** Reads Instance.subtasks ([{ id, testPatch, tests }]); malformed entries are skipped. */
export function parseSubtasks(value: unknown): SweepSubtask[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry: unknown): SweepSubtask[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { id, testPatch, tests } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || id === '') return [];
    return [{
      id,
      testPatch: typeof testPatch === 'string' ? testPatch : '',
      tests: Array.isArray(tests) ? tests.filter((test): test is string => typeof test === 'string') : [],
    }];
  });
}

/** States in which the grader could not run the suite (left out of the score, counted). */
const GRADER_FAILED: readonly string[] = ['publish_failed', 'no_run', 'cancelled', 'infra_error'];

/** The latest element per key (input is oldest first). */
function latestBy<T>(rows: readonly T[], key: (row: T) => string | null): Map<string, T> {
  const latest = new Map<string, T>();
  for (const row of rows) {
    const value = key(row);
    if (value !== null) latest.set(value, row);
  }
  return latest;
}

/**
 * Grades one SWE-sweep trial from stored submissions: the visible-suite submission and one submission per
 * subtask (candidate patch + the subtask's test patch, linked by parentSubmissionId/subtaskId).
 * - visible patch_failed: graded as no change (no regression, nothing resolved);
 * - visible timed_out: the regression gate fails;
 * - a grader failure (not finished, infra states, completed without any test result, a subtask run missing
 *   or failed to set up): an evaluation failure.
 */
export function gradeStoredTrial(input: {
  task: string;
  basePassing: readonly string[];
  subtasks: readonly SweepSubtask[];
  visible: SweepSubmission;
  subtaskRuns: ReadonlyMap<string, SweepSubmission>;
  results: ReadonlyMap<string, TestOutcome[]>;
}): SweepTrialOutcome {
  const { task, visible } = input;
  const failed: SweepTrialOutcome = { task, evaluationFailed: true };
  const state = visible.state as SubmissionState;
  if (state === 'patch_failed') return { task, bugs: input.subtasks.length, resolved: 0, regressed: false };
  if (!isTerminal(state) || GRADER_FAILED.includes(state)) return failed;
  const visibleResults = input.results.get(visible.id) ?? [];
  const visibleTimedOut = state === 'timed_out';
  if (!visibleTimedOut && visibleResults.length === 0) return failed;
  const bugs: { id: string; targetedTests: readonly string[]; results: readonly TestOutcome[] }[] = [];
  for (const subtask of input.subtasks) {
    const run = input.subtaskRuns.get(subtask.id);
    if (run === undefined) return failed;
    const runState = run.state as SubmissionState;
    if (!isTerminal(runState) || GRADER_FAILED.includes(runState) || runState === 'patch_failed') return failed;
    bugs.push({ id: subtask.id, targetedTests: subtask.tests, results: input.results.get(run.id) ?? [] });
  }
  return gradeSweepTrial({ task, basePassing: input.basePassing, visibleResults, visibleTimedOut, bugs });
}

/**
 * SWE-sweep's `sweep info --json` document for the runs: each run's latest visible-suite submission per
 * instance with subtasks is one trial of that instance's task.
 */
export async function loadSweepReport(deps: ReportDeps, runIds: readonly string[]): Promise<SweepSummaryJson> {
  await resolveRuns(deps, runIds);
  const [instances, submissions] = await Promise.all([
    deps.repos.reports.sweepInstancesForRuns(runIds),
    deps.repos.reports.sweepSubmissionsForRuns(runIds),
  ]);
  const byInstance = new Map(instances.map((instance) => [instance.id, instance]));
  const trialsNeeded: { runId: string; visible: SweepSubmission }[] = [];
  for (const runId of runIds) {
    const visibleRuns = submissions.filter((row) => row.runId === runId && row.parentSubmissionId === null && byInstance.has(row.instanceId));
    for (const visible of latestBy(visibleRuns, (row) => row.instanceId).values()) trialsNeeded.push({ runId, visible });
  }
  const childrenOf = new Map<string, SweepSubmission[]>();
  for (const row of submissions) {
    if (row.parentSubmissionId === null) continue;
    const list = childrenOf.get(row.parentSubmissionId) ?? [];
    list.push(row);
    childrenOf.set(row.parentSubmissionId, list);
  }
  const ids = trialsNeeded.flatMap(({ visible }) => [visible.id, ...(childrenOf.get(visible.id) ?? []).map((row) => row.id)]);
  const results = groupResults(await deps.repos.reports.testResultsOf(ids));
  const trials = trialsNeeded
    .sort((a, b) => (a.visible.instanceId < b.visible.instanceId ? -1 : a.visible.instanceId > b.visible.instanceId ? 1 : 0))
    .map(({ visible }) => {
      const instance = byInstance.get(visible.instanceId);
      return gradeStoredTrial({
        task: visible.instanceId,
        basePassing: instance?.basePassingTests ?? [],
        subtasks: parseSubtasks(instance?.subtasks),
        visible,
        subtaskRuns: latestBy(childrenOf.get(visible.id) ?? [], (row) => row.subtaskId),
        results,
      });
    });
  return sweepSummaryJson(trials);
}

function groupResults(rows: readonly StoredTestOutcome[]): Map<string, TestOutcome[]> {
  const grouped = new Map<string, TestOutcome[]>();
  for (const row of rows) {
    const list = grouped.get(row.submissionId) ?? [];
    list.push({ testId: row.testId, outcome: row.outcome });
    grouped.set(row.submissionId, list);
  }
  return grouped;
}
