import type { Readable } from 'node:stream';
import type { CiBackend } from '../backends/ci-backend.js';
import { LOG_READ_BYTES } from '../classify/index.js';
import type { CiRecordRepository, TestEvidenceRepository, WorkflowRunRow } from '../db/index.js';
import type { LogStore } from '../storage/log-store.js';
import { countTestsInLog } from './test-counts.js';

/** What {@link checkTestsRun} needs (a PipelineDeps satisfies it). */
export interface TestsRunDeps {
  repos: { testEvidence: TestEvidenceRepository; ci: Pick<CiRecordRepository, 'runsOf' | 'jobsOfRun'> };
  logStore: Pick<LogStore, 'open'>;
  backend: Pick<CiBackend, 'openJobLog'>;
}

/** How the candidate's executed tests were compared with the reference run's. */
export type TestsRunBasis =
  /** Per-test JUnit results (TestResult rows) of both runs. */
  | 'junit'
  /** Test counts from the pytest / unittest summary lines of both runs' job logs. */
  | 'logs'
  /** No completed reference run with test results or a readable test summary: nothing to compare with. */
  | 'no_reference'
  /** The reference has log counts but none of this run's job logs could be read: nothing to compare. */
  | 'no_candidate_logs';

export type TestsRunCheck =
  | { ok: true; basis: TestsRunBasis; referenceSubmissionId: string | null; summary: string }
  | {
    ok: false;
    basis: 'junit' | 'logs';
    referenceSubmissionId: string;
    /** junit: the ids of the reference's executed tests this run did not execute; logs: one line with the counts. */
    missing: string[];
    /** junit: what this run recorded for each missing test (`absent` when it has no result for it). */
    candidateOutcomes?: Record<string, string>;
    /** logs: executed tests counted in each run's summaries. */
    counts?: { reference: number; candidate: number; referenceSummaries: string[]; candidateSummaries: string[] };
    /** A sentence for the submission's reason (`tests_not_run`). */
    summary: string;
  };

/** A test ran to a verdict only when it passed or failed; skipped, xfailed, error (collection or setup) did not. */
const EXECUTED: readonly string[] = ['passed', 'failed'];
const MAX_LISTED = 1000;

/**
 * The `tests_not_run` check: did this run execute every test the instance's reference run executed?
 *
 * Contract (the finalize step calls it):
 * - Call it for a `candidate` submission whose run would otherwise pass, after `collectTestResults` stored the
 *   run's JUnit results (so they are compared too). Baseline and reference submissions are not checked; SWE-CI
 *   track rounds are scored on their own test sets and may be skipped.
 * - `{ ok: false }` means: outcome `failed`, reason `tests_not_run`; store `missing` (and `candidateOutcomes` or
 *   `counts`) in the reason details and use `summary` as the message.
 * - `{ ok: true }` leaves the verdict alone; `basis` says what was compared (`no_reference`: nothing to compare
 *   with — say so in the report rather than claiming the tests ran).
 *
 * The reference is the latest completed `reference` submission of the instance. With JUnit results (the reference
 * has TestResult rows), every test the reference executed (passed or failed) that this run did not execute
 * (absent: missing or deselected; skipped; xfailed; error, which is how outcome-rewriting collection hooks and
 * broken fixtures show) is listed. Without them, the executed counts of both runs' log summaries (pytest's
 * `== 12 passed, 1 skipped in 0.5s ==`, tox's pytest output, unittest's `Ran 12 tests` + `OK (skipped=1)`) are
 * compared: fewer executed tests fail the check, and readable logs without any test summary count as none executed
 * (the test command was removed or replaced). A hook that reports a failing test as `passed` leaves both the
 * same and is not seen here; the protection policy reverts the conftest.py or configuration that would do it.
 */
export async function checkTestsRun(deps: TestsRunDeps, submission: { id: string; instanceId: string }): Promise<TestsRunCheck> {
  const withResults = await deps.repos.testEvidence.latestReference(submission.instanceId, { withResults: true });
  if (withResults !== null && withResults.id !== submission.id) return compareResults(deps, submission.id, withResults.id);
  const reference = await deps.repos.testEvidence.latestReference(submission.instanceId, { withResults: false });
  if (reference === null || reference.id === submission.id) {
    return { ok: true, basis: 'no_reference', referenceSubmissionId: null, summary: 'no completed reference run of this instance to compare the executed tests with' };
  }
  const expected = (await countRun(deps, reference.id)).counts;
  if (expected === null) {
    return { ok: true, basis: 'no_reference', referenceSubmissionId: reference.id, summary: `reference run ${reference.id} has no test results and no test summary in its logs to compare with` };
  }
  const run = await countRun(deps, submission.id);
  if (!run.readable) {
    return { ok: true, basis: 'no_candidate_logs', referenceSubmissionId: reference.id, summary: `the reference run executed ${expected.executed} tests, but this run's job logs could not be read to compare` };
  }
  // Readable logs without any test summary: this run executed no test at all (the test command was removed or replaced).
  const actual = run.counts ?? { executed: 0, summaries: ['no test summary in its logs'] };
  const counts = { reference: expected.executed, candidate: actual.executed, referenceSummaries: expected.summaries, candidateSummaries: actual.summaries };
  if (actual.executed >= expected.executed) {
    return { ok: true, basis: 'logs', referenceSubmissionId: reference.id, summary: `this run executed ${actual.executed} tests, the reference run ${expected.executed} (log summaries)` };
  }
  const line = `${expected.executed - actual.executed} of the ${expected.executed} tests the reference run executed did not run here (reference: ${expected.summaries.join('; ')}; this run: ${actual.summaries.join('; ')})`;
  return { ok: false, basis: 'logs', referenceSubmissionId: reference.id, missing: [line], counts, summary: line };
}

async function compareResults(deps: TestsRunDeps, submissionId: string, referenceId: string): Promise<TestsRunCheck> {
  const reference = await deps.repos.testEvidence.outcomesOf(referenceId);
  const candidate = new Map((await deps.repos.testEvidence.outcomesOf(submissionId)).map((row) => [row.testId, row.outcome]));
  const executed = reference.filter((row) => EXECUTED.includes(row.outcome)).map((row) => row.testId);
  const missing = executed.filter((testId) => !EXECUTED.includes(candidate.get(testId) ?? 'absent'));
  if (missing.length === 0) {
    return { ok: true, basis: 'junit', referenceSubmissionId: referenceId, summary: `this run executed all ${executed.length} tests the reference run executed` };
  }
  const listed = missing.slice(0, MAX_LISTED);
  const candidateOutcomes = Object.fromEntries(listed.map((testId) => [testId, candidate.get(testId) ?? 'absent']));
  const examples = listed.slice(0, 5).map((testId) => `${testId} (${candidateOutcomes[testId] === 'absent' ? 'not run: missing or deselected' : candidateOutcomes[testId]})`);
  const more = missing.length > examples.length ? `, and ${missing.length - examples.length} more` : '';
  return {
    ok: false,
    basis: 'junit',
    referenceSubmissionId: referenceId,
    missing: listed,
    candidateOutcomes,
    summary: `${missing.length} of the ${executed.length} tests the reference run executed did not run here: ${examples.join(', ')}${more}`,
  };
}

/**
 * Sums the test summaries of every job of a submission's latest run attempt: `counts` is null when no log has one,
 * `readable` false when no job log could be read at all.
 */
async function countRun(deps: TestsRunDeps, submissionId: string): Promise<{ readable: boolean; counts: { executed: number; summaries: string[] } | null }> {
  const run = latest(await deps.repos.ci.runsOf(submissionId));
  if (run === undefined) return { readable: false, counts: null };
  let readable = false;
  let executed = 0;
  const summaries: string[] = [];
  for (const job of await deps.repos.ci.jobsOfRun(run.id)) {
    const log = await openLog(deps, job.log?.storageKey ?? null, { repoFullName: run.repoFullName, runId: run.githubRunId.toString(), jobId: job.githubJobId.toString() });
    if (log === null) continue;
    readable = true;
    const counts = await countTestsInLog(log);
    if (counts === null) continue;
    executed += counts.executed;
    summaries.push(...counts.summaries.map((line) => `${job.name}: ${line}`));
  }
  return { readable, counts: summaries.length === 0 ? null : { executed, summaries } };
}

/** The archived copy of a job's log, else the backend's. */
async function openLog(deps: TestsRunDeps, storageKey: string | null, ref: { repoFullName: string; runId: string; jobId: string }): Promise<Readable | null> {
  const archived = storageKey === null ? null : await deps.logStore.open(storageKey, { chunkBytes: LOG_READ_BYTES });
  if (archived !== null) return archived;
  return deps.backend.openJobLog(ref).catch(() => null);
}

function latest(runs: readonly WorkflowRunRow[]): WorkflowRunRow | undefined {
  return [...runs].sort((a, b) => (a.githubRunId === b.githubRunId ? a.runAttempt - b.runAttempt : a.githubRunId < b.githubRunId ? -1 : 1)).at(-1);
}
