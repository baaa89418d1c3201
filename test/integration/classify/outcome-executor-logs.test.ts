import { createReadStream } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeJobLog, judgeRun, type JobJudgement } from '../../../src/classify/outcome/index.js';
import { createFixtureRepo, runFixtureWorkflow, type FixtureRun } from '../../support/executor-fixtures.js';
import { pythonTools } from '../../support/python-tools.js';

/** Jobs the local executor really runs on this host, each failing for a different cause; their logs are judged. */
const repo = createFixtureRepo({
  'tests/test_client.py': [
    'def describe_error(error):',
    '    return str(error.strerror)',
    '',
    '',
    'def test_reports_refused_port():',
    '    err = describe_error(ConnectionRefusedError(111, "Connection refused"))',
    '    assert err == "server unavailable (Connection refused)"',
    '',
  ].join('\n'),
});
afterAll(() => repo.cleanup());

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
      - uses: actions/checkout@v4
      - uses: docker/setup-buildx-action@v3
  offline-install:
    runs-on: ubuntu-latest
    steps:
      - name: Install
        run: ${pythonTools.python3} -m pip download --no-deps --dest "$RUNNER_TEMP/dl" --retries 1 --timeout 3 --trusted-host nosuchhost.invalid --index-url http://nosuchhost.invalid/simple nosuchpkg
  runner-tool:
    runs-on: ubuntu-latest
    steps:
      - name: Deploy chart
        run: helm lint ./chart
  repo-tool:
    runs-on: ubuntu-latest
    steps:
      - name: Lint
        run: nosuch-linter --check .
  tests:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Test
        run: ${pythonTools.python3} -m pytest -q -p no:cacheprovider tests
  slow:
    runs-on: ubuntu-latest
    timeout-minutes: 0.02
    steps:
      - run: sleep 30
  fine:
    runs-on: ubuntu-latest
    steps:
      - run: echo ok
`;

let run: FixtureRun;
const judged = new Map<string, JobJudgement | null>();

beforeAll(async () => {
  run = await runFixtureWorkflow(repo, workflow, { maxParallelJobs: 4 });
  for (const job of run.result.jobs) {
    const { judgement } = await judgeJobLog({
      log: job.logPath === null ? null : createReadStream(job.logPath),
      conclusion: job.conclusion,
      status: 'completed',
      steps: job.steps.map((step) => ({ number: step.number, name: step.name, status: step.status, conclusion: step.conclusion })),
    });
    judged.set(job.name, judgement);
  }
}, 180_000);

describe('judging logs the local executor wrote', () => {
  it('calls a services: job an unsupported feature at "Set up job", with the executor\'s error line', () => {
    expect(judged.get('with-services')).toMatchObject({
      outcome: 'infra_error',
      reason: 'unsupported_feature',
      evidence: { step: 'Set up job', rule: 'setup-unsupported-by-local-executor', lines: [{ text: '##[error]services are not supported by the local executor' }] },
    });
    const line = judged.get('with-services')?.evidence?.lines[0]?.line ?? 0;
    expect(run.log('with-services').split('\n')[line - 1]).toContain('services are not supported by the local executor');
  });

  it('calls an action the executor cannot run an unsupported feature in its step', () => {
    expect(judged.get('docker-action')).toMatchObject({ outcome: 'infra_error', reason: 'unsupported_feature', evidence: { step: 'Run docker/setup-buildx-action@v3' } });
  });

  it('calls pip against an index that does not resolve network_unreachable, not the repository\'s dependency failure', () => {
    const judgement = judged.get('offline-install');
    expect(judgement).toMatchObject({ outcome: 'infra_error', reason: 'network_unreachable', evidence: { step: 'Install', rule: 'network-unreachable' } });
    expect(judgement?.evidence?.lines.some((line) => /Name or service not known|Temporary failure in name resolution|Failed to establish a new connection/.test(line.text))).toBe(true);
  });

  it('separates runner tooling missing on this host from a tool the repository should have installed', () => {
    expect(judged.get('runner-tool')).toMatchObject({ outcome: 'infra_error', reason: 'runner_tooling_missing', evidence: { step: 'Deploy chart' } });
    expect(judged.get('repo-tool')).toMatchObject({ outcome: 'failed', reason: 'step_failed', evidence: { step: 'Lint' } });
  });

  it('keeps a real test failure that prints "Connection refused" failed', () => {
    expect(judged.get('tests')).toMatchObject({ outcome: 'failed', reason: 'step_failed', evidence: { step: 'Test' } });
  });

  it('calls a job over its timeout-minutes timed_out although it concludes cancelled', () => {
    expect(run.result.jobs.find((job) => job.name === 'slow')?.conclusion).toBe('cancelled');
    expect(judged.get('slow')).toMatchObject({ outcome: 'timed_out', reason: 'timed_out', evidence: { rule: 'job-exceeded-max-time' } });
    expect(judged.get('fine')).toEqual({ outcome: 'passed', reason: null, evidence: null });
  });

  it('judges the run failed: a real failure anywhere wins over the platform errors', () => {
    const jobs = run.result.jobs.map((job) => ({ name: job.name, outcome: judged.get(job.name)?.outcome ?? null, reason: judged.get(job.name)?.reason ?? null, evidence: judged.get(job.name)?.evidence ?? null }));
    expect(judgeRun({ conclusion: run.result.conclusion, cancelRequested: false, jobs })).toMatchObject({ outcome: 'failed' });
    const platformOnly = jobs.filter((job) => job.outcome !== 'failed' && job.outcome !== 'timed_out');
    expect(judgeRun({ conclusion: 'failure', cancelRequested: false, jobs: platformOnly })).toMatchObject({ outcome: 'infra_error', reason: 'unsupported_feature', details: { job: 'with-services', step: 'Set up job' } });
  });
});
