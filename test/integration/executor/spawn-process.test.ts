import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { killGroup, spawnProcess, type SpawnResult } from '../../../src/executor/spawn-process.js';

async function run(script: string, onLine: (line: string) => void = () => {}): Promise<{ lines: string[]; result: SpawnResult; pid: number; ms: number }> {
  const lines: string[] = [];
  let pid = 0;
  const started = Date.now();
  const result = await spawnProcess({
    file: '/bin/sh',
    args: ['-c', script],
    cwd: tmpdir(),
    env: { PATH: '/usr/bin:/bin' },
    onLine: (line) => {
      lines.push(line);
      onLine(line);
    },
    onSpawn: (spawned) => {
      pid = spawned;
    },
    timeoutMs: 60_000,
    signal: new AbortController().signal,
    killGraceMs: 1000,
  });
  return { lines, result, pid, ms: Date.now() - started };
}

/** Blocks the event loop, as a busy worker process does on a loaded machine. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

describe('spawnProcess: a step\'s output is complete when its process exits', () => {
  it('keeps every line written before the exit while the event loop was blocked past the exit', async () => {
    const { lines, result } = await run('echo first; sleep 0.2; seq 1 3000; echo last', (line) => {
      if (line === 'first') busy(800);
    });
    expect(result.exitCode).toBe(0);
    expect(lines).toEqual(['first', ...Array.from({ length: 3000 }, (_, i) => String(i + 1)), 'last']);
  });

  it('waits for the pipes to close when no process of the group is left (a process that left it with setsid writes later)', async () => {
    const { lines, result } = await run('setsid sh -c "sleep 0.4; echo late" & echo first');
    expect(result.exitCode).toBe(0);
    expect(lines).toEqual(['first', 'late']);
  });

  it('does not wait for a background process of the group that holds the pipes without writing', async () => {
    const { lines, result, pid, ms } = await run('sleep 30 & echo first; exit 3');
    try {
      expect(result.exitCode).toBe(3);
      expect(lines).toEqual(['first']);
      // Resolved at the exit plus an idle moment, far from the background sleep's 30 s.
      expect(ms).toBeLessThan(15_000);
    } finally {
      killGroup(pid, 'SIGKILL');
    }
  });
});
