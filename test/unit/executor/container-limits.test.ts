import { describe, expect, it } from 'vitest';
import { limitHostConfig, limitOptions } from '../../../src/executor/container/limits.js';
import { DEFAULT_STEP_LIMITS, type StepLimits } from '../../../src/executor/sandbox/settings.js';

const LIMITS: StepLimits = { ...DEFAULT_STEP_LIMITS, memoryMb: 1024, maxProcesses: 256, cpuSeconds: 600, fileSizeMb: 100 };

describe('container limits', () => {
  it('gives docker the cgroup limits and rlimits as CLI options and as the Engine API HostConfig', () => {
    expect(limitOptions(LIMITS, 2)).toEqual([
      '--memory=1280m', '--memory-swap=1280m', '--pids-limit=288', '--cpus=2',
      '--ulimit', 'core=0', '--ulimit', `fsize=${100 * 1024 * 1024}`, '--ulimit', 'cpu=600:605',
    ]);
    expect(limitHostConfig(LIMITS, 1.5)).toEqual({
      Memory: 1280 * 1024 * 1024, MemorySwap: 1280 * 1024 * 1024, PidsLimit: 288, NanoCpus: 1_500_000_000,
      Ulimits: [{ Name: 'core', Soft: 0, Hard: 0 }, { Name: 'fsize', Soft: 100 * 1024 * 1024, Hard: 100 * 1024 * 1024 }, { Name: 'cpu', Soft: 600, Hard: 605 }],
    });
  });

  it("gives podman the worker's own open-files limit and at most 32768 processes (its defaults fail without CAP_SYS_RESOURCE)", () => {
    const options = limitOptions(LIMITS, 2, 'podman');
    const nofile = /^nofile=(\d+)$/.exec(options.find((o) => o.startsWith('nofile=')) ?? '')?.[1];
    const nproc = /^nproc=(\d+)$/.exec(options.find((o) => o.startsWith('nproc=')) ?? '')?.[1];
    expect(Number(nofile)).toBeGreaterThan(0);
    expect(Number(nofile)).toBeLessThanOrEqual(1_048_576);
    expect(Number(nproc)).toBeGreaterThan(0);
    expect(Number(nproc)).toBeLessThanOrEqual(32_768);
    expect(limitHostConfig(LIMITS, 2, 'podman').Ulimits).toContainEqual({ Name: 'nofile', Soft: Number(nofile), Hard: Number(nofile) });
  });
});
