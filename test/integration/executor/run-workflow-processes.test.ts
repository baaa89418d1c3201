import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';
import { waitFor } from '../../support/wait-for.js';

let repo: FixtureRepo;
beforeAll(() => {
  repo = createFixtureRepo({});
});
afterAll(() => repo.cleanup());

/** Whether a process is still running (a zombie waiting to be reaped counts as gone). */
const running = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

const pidsIn = (text: string): number[] =>
  logLines(text)
    .filter((l) => /^pid=\d+$/.test(l))
    .map((l) => Number(l.slice(4)));

/**
 * Host pids of running processes whose command line is exactly `argv` (steps run in their own pid namespace, so
 * the pid a step prints is not the host's: tests find its processes by a unique command line instead).
 */
const hostPidsOf = (...argv: string[]): number[] =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `${argv.join('\0')}\0` && running(pid);
      } catch {
        return false;
      }
    });

describe('runWorkflow: process confinement', () => {
  it('kills the whole process group of a step that exceeds its timeout-minutes', async () => {
    const started = Date.now();
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  slow:
    runs-on: ubuntu-latest
    steps:
      - name: sleeper
        timeout-minutes: 0.01
        run: |
          sleep 30.101 &
          echo "pid=$!"
          sleep 30
      - run: echo next
      - if: always()
        run: |
          echo cleanup
          if pgrep -f 'sleep 30.101' >/dev/null; then echo sleeper=alive; else echo sleeper=gone; fi
`,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    const job = result.jobs[0];
    expect(job?.conclusion).toBe('failure');
    expect(job?.timedOut).toBe(false);
    expect(job?.steps.map((s) => `${s.name}=${s.conclusion}`)).toEqual([
      'Set up job=success',
      'sleeper=failure',
      'Run echo next=skipped',
      'Run echo cleanup=success',
      'Complete job=success',
    ]);
    const text = log('slow');
    expect(logLines(text)).toContain("##[error]The action 'sleeper' has timed out after 0.01 minutes.");
    const [pid] = pidsIn(text);
    expect(pid).toBeGreaterThan(0);
    expect(logLines(text)).toContain('sleeper=gone');
    expect(hostPidsOf('sleep', '30.101')).toEqual([]);
  });

  it('cancels the job on its own timeout-minutes', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  slowjob:
    runs-on: ubuntu-latest
    timeout-minutes: 0.01
    steps:
      - run: sleep 30
      - run: echo never
`,
    );
    const job = result.jobs[0];
    expect(job?.conclusion).toBe('cancelled');
    expect(job?.timedOut).toBe(true);
    expect(job?.steps.map((s) => s.conclusion)).toEqual(['success', 'cancelled', 'skipped', 'success']);
    expect(result.conclusion).toBe('cancelled');
    expect(logLines(log('slowjob'))).toContain(
      '##[error]The job running on runner ci-replay-local has exceeded the maximum execution time of 0.01 minutes.',
    );
  });

  it('cancels a run through its AbortSignal: running steps are killed, pending jobs are cancelled', async () => {
    const controller = new AbortController();
    const runPromise = runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  long:
    runs-on: ubuntu-latest
    steps:
      - run: |
          sleep 60.202 &
          echo "pid=$!"
          sleep 60.203
      - run: echo skipped
      - if: always()
        run: |
          echo always-ran
          if pgrep -f 'sleep 60.202' >/dev/null; then echo sleeper=alive; else echo sleeper=gone; fi
  later:
    needs: long
    runs-on: ubuntu-latest
    steps:
      - run: echo never
`,
      { signal: controller.signal },
    );
    // Cancel once the first step is running (its background sleeper exists) and has printed its pid (the foreground
    // sleep after the echo exists), however slow the machine is to get there: cancelled between the two, the echo
    // never ran (seen once on a loaded machine).
    await waitFor(async () => (hostPidsOf('sleep', '60.202').length > 0 && hostPidsOf('sleep', '60.203').length > 0 ? true : undefined), { timeoutMs: 30_000, intervalMs: 50 });
    controller.abort();
    const { result, log, events } = await runPromise;
    expect(result.conclusion).toBe('cancelled');
    const [long, later] = result.jobs;
    expect(long?.conclusion).toBe('cancelled');
    expect(long?.steps.map((s) => s.conclusion)).toEqual(['success', 'cancelled', 'skipped', 'success', 'success']);
    expect(later?.conclusion).toBe('cancelled');
    const lines = logLines(log('long'));
    expect(lines).toContain('##[error]The operation was canceled.');
    expect(lines).toContain('always-ran');
    expect(pidsIn(log('long'))[0]).toBeGreaterThan(0);
    expect(lines).toContain('sleeper=gone');
    expect(hostPidsOf('sleep', '60.202')).toEqual([]);
    const last = events.at(-1);
    expect(last?.kind === 'workflow_run' && last.conclusion).toBe('cancelled');
  });

  it('runs steps with a clean environment and removes the working directory afterwards', async () => {
    process.env.CI_REPLAY_TEST_SECRET = 'leak-me';
    try {
      const { result, log, dirs } = await runFixtureWorkflow(
        repo,
        `
on: push
jobs:
  env:
    runs-on: ubuntu-latest
    steps:
      - run: |
          echo "secret=\${CI_REPLAY_TEST_SECRET:-unset} extra=$EXTRA_VAR"
          env | cut -d= -f1 | sort | tr '\\n' ' '; echo
`,
        { env: { EXTRA_VAR: 'given' } },
      );
      expect(result.conclusion).toBe('success');
      const lines = logLines(log('env'));
      expect(lines).toContain('secret=unset extra=given');
      expect(readdirSync(dirs.workRoot)).toEqual([]);
    } finally {
      delete process.env.CI_REPLAY_TEST_SECRET;
    }
  });

  it('caps the job log and says so, while the step keeps running to completion', async () => {
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  noisy:
    runs-on: ubuntu-latest
    steps:
      - run: |
          for i in $(seq 1 5000); do echo "line $i of noisy output"; done
          echo "::error::late error"
          echo "done=yes" >> "$GITHUB_OUTPUT"
        id: noisy
      - run: echo "\${{ steps.noisy.outputs.done }}" > "$RUNNER_TEMP/../marker"
`,
      { outputCapBytes: 20_000 },
    );
    expect(result.conclusion).toBe('success');
    const text = log('noisy');
    expect(Buffer.byteLength(text)).toBeLessThan(25_000);
    const lines = logLines(text);
    expect(lines).toContain('##[warning]Log truncated: the job output exceeded 20000 bytes; further output is discarded.');
    expect(lines.at(-1)).toBe('Cleaning up orphan processes');
    expect(result.jobs[0]?.annotations.map((a) => a.message)).toContain('late error');
    expect(existsSync(join(result.jobs[0]?.logPath ?? '', '..'))).toBe(true);
    expect(readFileSync(result.jobs[0]?.logPath ?? '', 'utf8')).toContain('line 1 of noisy output');
  });

  it('cancels the other matrix legs when one fails (fail-fast)', async () => {
    const started = Date.now();
    const { result, log } = await runFixtureWorkflow(
      repo,
      `
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        leg: [fast-fail, slow]
    steps:
      # the slow leg's step is running (its job has set up its sandbox) by the time the fast one fails
      - run: |
          if [ "\${{ matrix.leg }}" = fast-fail ]; then sleep 1; exit 1; fi
          sleep 30
`,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.jobs.map((j) => `${j.name}=${j.conclusion}`)).toEqual(['test (fast-fail)=failure', 'test (slow)=cancelled']);
    expect(logLines(log('test (slow)'))).toContain('##[error]The operation was canceled.');
    expect(result.conclusion).toBe('failure');
  });
});
