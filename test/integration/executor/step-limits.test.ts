import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../../../src/executor/index.js';
import type { FixtureRepo } from '../../support/executor-fixtures.js';
import { createFixtureRepo, logLines, runFixtureWorkflow } from '../../support/executor-fixtures.js';

let repo: FixtureRepo;
beforeAll(() => {
  repo = createFixtureRepo({});
});
afterAll(() => repo.cleanup());

const limited: SandboxSettings = {
  ...DEFAULT_SANDBOX_SETTINGS,
  mode: 'namespaces',
  network: 'none',
  limits: { memoryMb: 256, maxProcesses: 64, cpuSeconds: 2, fileSizeMb: 1, maxOutputBytes: 4 * 1024 * 1024 },
};

/** One runaway step, then an `always()` step that shows the job went on (the worker did not hang). */
const runaway = (script: string): string => `
on: push
jobs:
  runaway:
    runs-on: ubuntu-latest
    steps:
      - name: runaway
        run: |
${script.split('\n').map((l) => `          ${l}`).join('\n')}
      - run: echo never
      - if: always()
        run: echo after-the-runaway
`;

async function runRunaway(script: string, sandbox: SandboxSettings = limited) {
  const started = Date.now();
  const run = await runFixtureWorkflow(repo, runaway(script), { sandbox, outputCapBytes: 200_000 });
  const job = run.result.jobs[0];
  const lines = logLines(run.log('runaway'));
  return { job, lines, seconds: (Date.now() - started) / 1000, conclusions: job?.steps.map((s) => s.conclusion) };
}

describe('the step sandbox: resource limits end a runaway step with a clear error', () => {
  it('a fork bomb is stopped at the process limit', async () => {
    const { job, lines, seconds, conclusions } = await runRunaway(':(){ :|:& };:\nwait\nsleep 60');
    expect(seconds).toBeLessThan(30);
    expect(conclusions, lines.join('\n')).toEqual(['success', 'failure', 'skipped', 'success', 'success']);
    expect(lines).toContain(
      "##[error]The step exceeded the process limit (EXECUTOR_STEP_MAX_PROCESSES=64): fork failed (Resource temporarily unavailable), the step's processes were killed.",
    );
    expect(lines).toContain('after-the-runaway');
    expect(job?.infraError).toMatchObject({ reason: 'process_limit', stepNumber: 2 });
  });

  it('a memory hog is killed at the memory limit', async () => {
    const hog = "python3 -c 'import time\nx = []\nwhile True:\n    x.append(b\"x\" * 8 * 1024 * 1024)\n    time.sleep(0.02)'";
    const { job, lines, seconds, conclusions } = await runRunaway(hog);
    expect(seconds).toBeLessThan(30);
    expect(conclusions, lines.join('\n')).toEqual(['success', 'failure', 'skipped', 'success', 'success']);
    expect(lines).toContain("##[error]The step exceeded the memory limit (EXECUTOR_STEP_MEMORY_MB=256): out of memory, the step's processes were killed.");
    expect(lines).toContain('after-the-runaway');
    expect(job?.infraError).toMatchObject({ reason: 'out_of_memory', stepNumber: 2 });
  });

  it('endless output is killed at the output limit, past the log cap', async () => {
    const { job, lines, seconds, conclusions } = await runRunaway('yes ci-replay');
    expect(seconds).toBeLessThan(30);
    expect(conclusions, lines.slice(-20).join('\n')).toEqual(['success', 'failure', 'skipped', 'success', 'success']);
    expect(lines).toContain('##[warning]Log truncated: the job output exceeded 200000 bytes; further output is discarded.');
    expect(lines).toContain(`##[error]The step exceeded the output limit (EXECUTOR_STEP_MAX_OUTPUT_BYTES=${4 * 1024 * 1024}): the step's processes were killed.`);
    expect(job?.infraError).toMatchObject({ reason: 'output_limit', stepNumber: 2 });
  });

  it('output without newlines is bounded too', async () => {
    const { job, seconds } = await runRunaway('cat /dev/zero');
    expect(seconds).toBeLessThan(30);
    expect(job?.infraError).toMatchObject({ reason: 'output_limit' });
  });

  it('a CPU-bound loop is killed at the CPU time limit, a big file at the file size limit', async () => {
    const cpu = await runRunaway('while :; do :; done');
    expect(cpu.seconds).toBeLessThan(30);
    expect(cpu.conclusions, cpu.lines.join('\n')).toEqual(['success', 'failure', 'skipped', 'success', 'success']);
    expect(cpu.lines).toContain('##[error]The step exceeded the CPU time limit (EXECUTOR_STEP_CPU_SECONDS=2): Killed.');
    expect(cpu.job?.infraError).toMatchObject({ reason: 'cpu_time_limit' });

    const file = await runRunaway('head -c 5000000 /dev/zero > big.bin');
    expect(file.conclusions, file.lines.join('\n')).toEqual(['success', 'failure', 'skipped', 'success', 'success']);
    expect(file.lines).toContain('##[error]The step exceeded the file size limit (EXECUTOR_STEP_FILE_SIZE_MB=1): File too large.');
    expect(file.job?.infraError).toMatchObject({ reason: 'file_size_limit' });
  });

  it('a step within the limits is not affected, and its ordinary failure is not called a limit', async () => {
    const { job, lines, conclusions } = await runRunaway("python3 -c 'x = b\"x\" * 50 * 1024 * 1024; print(len(x))'\nfor i in $(seq 1 20); do sleep 0.01 & done; wait\nexit 3");
    expect(conclusions, lines.join('\n')).toEqual(['success', 'failure', 'skipped', 'success', 'success']);
    expect(lines).toContain('52428800');
    expect(lines).toContain('##[error]Process completed with exit code 3.');
    expect(lines.some((l) => l.includes('exceeded the'))).toBe(false);
    expect(job?.infraError).toBeUndefined();
  });
});
