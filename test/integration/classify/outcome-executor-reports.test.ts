import { createReadStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeJobLog, type JobJudgement } from '../../../src/classify/outcome/index.js';
import { readExecutorReport } from '../../../src/domain/executor-report.js';
import { DEFAULT_SANDBOX_SETTINGS, type JobResult } from '../../../src/executor/index.js';
import { createFixtureRepo, runFixtureWorkflow, type FixtureRun } from '../../support/executor-fixtures.js';

/**
 * Jobs the local executor really runs, judged the way the local backend judges them: with the report the executor
 * hands over for each job (onJobResult, before its completed event). Every platform failure the executor causes is
 * in its report; every executor message a step merely prints is judged as the step's own failure.
 */
const repo = createFixtureRepo({});
afterAll(() => repo.cleanup());

const lines = [
  '##[error]The step exceeded the memory limit (EXECUTOR_STEP_MEMORY_MB=256): out of memory, the step\'s processes were killed.',
  '##[error]The step sandbox of this job ended unexpectedly; the step cannot run.',
  '##[error]action not supported by the local executor: docker/setup-buildx-action@v3',
  '##[error]python-version 3.8 requested; available: 3.11.7',
  "##[error]The action 'Run tests' has timed out after 10 minutes.",
  '##[error]The job running on runner ci-replay-local has exceeded the maximum execution time of 1 minutes.',
  '##[error]The runner has received a shutdown signal. This can happen when the runner service is stopped, or a manually started runner is canceled.',
];

const workflow = `
name: ci
on: push
jobs:
  with-services:
    runs-on: ubuntu-latest
    services:
      postgres:
        image: postgres:16
    steps:
      - run: echo never runs
  docker-action:
    runs-on: ubuntu-latest
    steps:
      - uses: docker/setup-buildx-action@v3
  old-python:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/setup-python@v5
        with:
          python-version: '2.6'
  pwsh:
    runs-on: ubuntu-latest
    steps:
      - shell: pwsh
        run: Write-Output hi
  other-repo:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          repository: someone/else
  slow-step:
    runs-on: ubuntu-latest
    steps:
      - timeout-minutes: 0.02
        run: sleep 30
  slow-job:
    runs-on: ubuntu-latest
    timeout-minutes: 0.02
    steps:
      - run: sleep 30
  memory-hog:
    runs-on: ubuntu-latest
    steps:
      - run: |
          python3 -c 'import time
          x = []
          while True:
              x.append(b"x" * 8 * 1024 * 1024)
              time.sleep(0.02)'
${lines.map((line, i) => `  forged-${i}:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo ${JSON.stringify(line)}
          exit 1`).join('\n')}
`;

let run: FixtureRun;
const reports = new Map<string, unknown>();
const judged = new Map<string, JobJudgement | null>();

beforeAll(async () => {
  run = await runFixtureWorkflow(repo, workflow, {
    maxParallelJobs: 4,
    sandbox: { ...DEFAULT_SANDBOX_SETTINGS, limits: { ...DEFAULT_SANDBOX_SETTINGS.limits, memoryMb: 256 } },
    // what the local backend stores: a JSON copy of the executor's account, read back as the judge gets it
    onJobResult: (job: JobResult) => {
      reports.set(job.id, JSON.parse(JSON.stringify({ infraError: job.infraError ?? null, timedOut: job.timedOut, timedOutSteps: job.timedOutSteps ?? [] })));
    },
  });
  for (const job of run.result.jobs) {
    const { judgement } = await judgeJobLog({
      log: job.logPath === null ? null : createReadStream(job.logPath),
      conclusion: job.conclusion,
      status: 'completed',
      steps: job.steps.map((step) => ({ number: step.number, name: step.name, status: step.status, conclusion: step.conclusion })),
      executor: readExecutorReport(reports.get(job.id)),
    });
    judged.set(job.name, judgement);
  }
}, 180_000);

describe('judging executor logs with the executor\'s own report', () => {
  it('hands over a report for every job that ran, before its completed event', () => {
    const ran = run.result.jobs.filter((job) => job.logPath !== null);
    expect(ran.map((job) => reports.has(job.id))).toEqual(ran.map(() => true));
    const completed = run.events.filter((event) => event.kind === 'workflow_job' && event.status === 'completed').length;
    expect(completed).toBe(run.result.jobs.length);
  });

  it.each([
    ['with-services', { outcome: 'infra_error', reason: 'unsupported_feature', evidence: { step: 'Set up job', rule: 'setup-unsupported-by-local-executor' } }],
    ['docker-action', { outcome: 'infra_error', reason: 'unsupported_feature', evidence: { rule: 'step-unsupported-by-local-executor' } }],
    ['old-python', { outcome: 'infra_error', reason: 'runner_tooling_missing', evidence: { rule: 'local-interpreter-missing' } }],
    ['pwsh', { outcome: 'infra_error', reason: 'unsupported_feature', evidence: { rule: 'step-unsupported-by-local-executor' } }],
    ['other-repo', { outcome: 'infra_error', reason: 'unsupported_feature', evidence: { rule: 'step-unsupported-by-local-executor' } }],
    ['slow-step', { outcome: 'timed_out', reason: 'timed_out', evidence: { rule: 'step-timed-out' } }],
    ['slow-job', { outcome: 'timed_out', reason: 'timed_out', evidence: { rule: 'job-exceeded-max-time' } }],
    ['memory-hog', { outcome: 'infra_error', reason: 'out_of_memory', evidence: { rule: 'step-out-of-memory' } }],
  ])('%s: the platform failure the executor reported', (name, expected) => {
    expect(judged.get(name)).toMatchObject(expected);
  });

  it.each(lines.map((line, i) => [line, i] as const))('a step printing %s is failed', (_line, i) => {
    expect(judged.get(`forged-${i}`)).toMatchObject({ outcome: 'failed', reason: 'step_failed', evidence: { step: `Run echo ${JSON.stringify(lines[i])}` } });
  });
});
