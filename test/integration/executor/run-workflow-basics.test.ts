import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z /;

let repo: FixtureRepo;
beforeAll(() => {
  repo = createFixtureRepo({ 'sub/dir/file.txt': 'inside\n', 'tests/test_x.py': 'def test_x():\n    assert True\n' });
});
afterAll(() => repo.cleanup());

const conclusions = (steps: Array<{ name: string; conclusion: string | null }>): string[] =>
  steps.map((s) => `${s.name}=${s.conclusion ?? 'null'}`);

describe('runWorkflow: jobs, needs and conditions', () => {
  it('runs jobs in needs order, skips dependents of a failed job, honours always()/failure()', async () => {
    const { result, events, log } = await runFixtureWorkflow(
      repo,
      `
name: CI
on: push
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: echo lint-ok
  test:
    needs: lint
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo about to fail
          exit 4
      - name: never
        run: echo never
      - name: on failure
        if: failure()
        run: echo failure-handler
      - name: always
        if: \${{ always() }}
        run: echo always-handler
      - name: cancelled only
        if: cancelled()
        run: echo nope
  deploy:
    needs: test
    runs-on: ubuntu-latest
    steps:
      - run: echo deploy
  report:
    needs: [lint, test]
    if: always()
    runs-on: ubuntu-latest
    steps:
      - run: echo "lint=\${{ needs.lint.result }} test=\${{ needs.test.result }}"
  notify:
    needs: test
    if: failure()
    runs-on: ubuntu-latest
    steps:
      - run: echo notify
`,
      { htmlBaseUrl: 'https://github.com/' },
    );
    expect(result.conclusion).toBe('failure');
    const byKey = Object.fromEntries(result.jobs.map((j) => [j.key, j]));
    expect(result.jobs.map((j) => j.key)).toEqual(['lint', 'test', 'deploy', 'report', 'notify']);
    expect(byKey.lint?.conclusion).toBe('success');
    expect(byKey.test?.conclusion).toBe('failure');
    expect(byKey.deploy?.conclusion).toBe('skipped');
    expect(byKey.deploy?.logPath).toBeNull();
    expect(byKey.report?.conclusion).toBe('success');
    expect(byKey.notify?.conclusion).toBe('success');
    expect(conclusions(byKey.test?.steps ?? [])).toEqual([
      'Set up job=success',
      'Run echo about to fail=failure',
      'never=skipped',
      'on failure=success',
      'always=success',
      'cancelled only=skipped',
      'Complete job=success',
    ]);
    expect(logLines(log('report'))).toContain('lint=success test=failure');
    const testLog = log('test');
    for (const line of testLog.trimEnd().split('\n')) expect(line).toMatch(TS);
    const lines = logLines(testLog);
    const start = lines.indexOf('##[group]Run echo about to fail');
    expect(lines.slice(start, start + 6)).toEqual([
      '##[group]Run echo about to fail',
      '\u001b[36;1mecho about to fail\u001b[0m',
      '\u001b[36;1mexit 4\u001b[0m',
      'shell: /usr/bin/bash -e {0}',
      '##[endgroup]',
      'about to fail',
    ]);
    expect(lines).toContain('##[error]Process completed with exit code 4.');
    expect(lines).toContain('failure-handler');
    expect(lines).not.toContain('never');
    expect(lines.at(-1)).toBe('Cleaning up orphan processes');
    expect(byKey.test?.annotations).toContainEqual({ level: 'error', message: 'Process completed with exit code 4.', stepNumber: 2 });
    // events: the skipped job has none; lint completes before test is queued
    const jobEvents = events.filter((e) => e.kind === 'workflow_job');
    expect(jobEvents.some((e) => e.name === 'deploy')).toBe(false);
    const order = jobEvents.map((e) => `${e.name}:${e.status}`);
    expect(order.indexOf('lint:completed')).toBeLessThan(order.indexOf('test:queued'));
    const runEvents = events.filter((e) => e.kind === 'workflow_run').map((e) => `${e.status}:${e.conclusion ?? ''}`);
    expect(runEvents).toEqual(['requested:', 'in_progress:', 'completed:failure']);
    const completed = jobEvents.find((e) => e.name === 'test' && e.status === 'completed');
    expect(completed?.jobId).toBe(byKey.test?.id);
    expect(Number(completed?.jobId)).toBeGreaterThan(2 ** 31);
    expect(completed?.steps.length).toBe(7);
    expect(completed?.runnerName).toBe('ci-replay-local');
    expect(completed?.htmlUrl).toBe(`https://github.com/octo/fixture/actions/runs/${2 ** 32 + 7}/job/${byKey.test?.id ?? ''}`);
  });

  it('runs independent jobs concurrently up to maxParallelJobs', async () => {
    const text = `
on: push
jobs:
  a:
    runs-on: ubuntu-latest
    steps: [{ run: sleep 0.6 }]
  b:
    runs-on: ubuntu-latest
    steps: [{ run: sleep 0.6 }]
`;
    const overlap = (jobs: Array<{ startedAt: string | null; completedAt: string | null }>): boolean => {
      const [x, y] = jobs.map((j) => [Date.parse(j.startedAt ?? ''), Date.parse(j.completedAt ?? '')] as const);
      return x !== undefined && y !== undefined && x[0] < y[1] && y[0] < x[1];
    };
    const parallel = await runFixtureWorkflow(repo, text, { maxParallelJobs: 2 });
    expect(parallel.result.conclusion).toBe('success');
    expect(overlap(parallel.result.jobs)).toBe(true);
    const serial = await runFixtureWorkflow(repo, text, { maxParallelJobs: 1 });
    expect(overlap(serial.result.jobs)).toBe(false);
  });

  it('applies env precedence (workflow < job < GITHUB_ENV < step), defaults.run and working-directory', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
env:
  A: wf
  B: wf
  C: wf
  D: wf
defaults:
  run:
    shell: bash
jobs:
  envs:
    runs-on: ubuntu-latest
    env:
      B: job
      C: job
      D: job
    defaults:
      run:
        working-directory: sub
    steps:
      - uses: actions/checkout@v4
      - run: echo "D=from-env-file" >> "$GITHUB_ENV"
      - env:
          C: step
        run: |
          echo "A=$A B=$B C=$C D=$D"
          pwd | sed 's|.*/fixture/fixture|WS|'
          echo "opts=$-"
      - working-directory: sub/dir
        shell: sh
        run: cat file.txt
      - shell: python
        run: |
          import os
          print("py", os.environ["A"])
`,
    );
    expect(result.conclusion).toBe('success');
    const lines = logLines(log('envs'));
    expect(lines).toContain('A=wf B=job C=step D=from-env-file');
    expect(lines).toContain('WS/sub');
    expect(lines).toContain('shell: /usr/bin/bash --noprofile --norc -eo pipefail {0}');
    expect(lines).toContain('shell: /usr/bin/sh -e {0}');
    expect(lines.some((l) => /^shell: \S+python3? \{0\}$/.test(l))).toBe(true);
    expect(lines).toContain('inside');
    expect(lines).toContain('py wf');
    expect(lines.find((l) => l.startsWith('opts='))).toMatch(/e/);
    // the env block of the step shows the effective non-default variables
    const group = lines.indexOf('##[group]Run echo "A=$A B=$B C=$C D=$D"');
    expect(lines.slice(group).indexOf('env:')).toBeGreaterThan(0);
    expect(lines).toContain('  C: step');
  });

  it('fails a step whose pipeline fails under shell: bash (pipefail) but not under the default shell', async () => {
    const { result } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  p:
    runs-on: ubuntu-latest
    steps:
      - run: false | true
      - shell: bash
        run: false | true
`,
    );
    expect(conclusions(result.jobs[0]?.steps ?? []).slice(1, 3)).toEqual(['Run false | true=success', 'Run false | true=failure']);
  });

  it('honours continue-on-error at step and job level', async () => {
    const { result } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  flaky:
    runs-on: ubuntu-latest
    steps:
      - id: bad
        continue-on-error: true
        run: exit 1
      - run: echo "\${{ steps.bad.outcome }}/\${{ steps.bad.conclusion }}" > /dev/null
      - if: steps.bad.outcome == 'failure'
        run: echo saw-failure
  experimental:
    runs-on: ubuntu-latest
    continue-on-error: true
    steps:
      - run: exit 2
  after:
    needs: [flaky, experimental]
    runs-on: ubuntu-latest
    steps:
      - run: echo after
`,
    );
    const byKey = Object.fromEntries(result.jobs.map((j) => [j.key, j]));
    expect(conclusions(byKey.flaky?.steps ?? []).slice(1, 4)).toEqual([
      'Run exit 1=success',
      'Run echo "failure/success" > /dev/null=success',
      "Run echo saw-failure=success",
    ]);
    expect(byKey.flaky?.conclusion).toBe('success');
    expect(byKey.experimental?.conclusion).toBe('failure');
    expect(byKey.after?.conclusion).toBe('success');
    expect(result.conclusion).toBe('success');
  });

  it('expands a matrix with include/exclude and names jobs like GitHub', async () => {
    const { result, log, events } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  test:
    runs-on: \${{ matrix.os }}
    strategy:
      fail-fast: false
      matrix:
        python: ['3.10', '3.11']
        os: [ubuntu-latest, macos-latest]
        exclude:
          - os: macos-latest
            python: '3.10'
        include:
          - python: '3.11'
            experimental: true
    steps:
      - run: echo "py=\${{ matrix.python }} os=\${{ matrix.os }} exp=\${{ matrix.experimental }} idx=\${{ strategy.job-index }}/\${{ strategy.job-total }}"
  named:
    name: Lint \${{ matrix.tool }}
    runs-on: ubuntu-latest
    strategy:
      matrix:
        tool: [flake8]
    steps:
      - run: echo ok
`,
    );
    expect(result.jobs.map((j) => j.name)).toEqual([
      'test (3.10, ubuntu-latest)',
      'test (3.11, ubuntu-latest, true)',
      'test (3.11, macos-latest, true)',
      'Lint flake8',
    ]);
    expect(logLines(log('test (3.11, macos-latest, true)'))).toContain('py=3.11 os=macos-latest exp=true idx=2/3');
    const queued = events.find((e) => e.kind === 'workflow_job' && e.name === 'test (3.11, macos-latest, true)');
    expect(queued?.kind === 'workflow_job' && queued.labels).toEqual(['macos-latest']);
  });
});
