import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export interface SpawnOptions {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Called for each complete output line (stdout and stderr merged, in arrival order). */
  onLine: (line: string) => void;
  timeoutMs: number;
  signal: AbortSignal;
  killGraceMs: number;
  /** Called with the pid (= process group id) once the process started. */
  onSpawn?: (pid: number) => void;
  /** Called with the size of each chunk of output as it arrives (before it is split into lines). */
  onBytes?: (bytes: number) => void;
}

/** A longer run of output without a newline is passed on as a line of its own. */
const MAX_LINE_CHARS = 64 * 1024;

export interface SpawnResult {
  exitCode: number | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Spawning failed (e.g. the shell does not exist). */
  spawnError: string | null;
}

/**
 * Splits a process's stdout and stderr into lines (each stream buffered on its own, `\r\n` ends a line too), passing
 * a run of output without newlines past MAX_LINE_CHARS on as a line; `flush` passes on what is left at the end.
 */
export function lineFeeder(onLine: (line: string) => void, onBytes?: (bytes: number) => void): { feed(which: 'out' | 'err', chunk: Buffer): void; flush(): void } {
  const buffers = { out: '', err: '' };
  return {
    feed(which, chunk) {
      onBytes?.(chunk.length);
      const text = buffers[which] + chunk.toString('utf8');
      const parts = text.split('\n');
      buffers[which] = parts.pop() ?? '';
      for (const part of parts) onLine(part.endsWith('\r') ? part.slice(0, -1) : part);
      // output without newlines (`cat /dev/zero`) must not grow without bound in the worker
      if (buffers[which].length > MAX_LINE_CHARS) {
        onLine(buffers[which]);
        buffers[which] = '';
      }
    },
    flush() {
      for (const which of ['out', 'err'] as const) {
        if (buffers[which] !== '') onLine(buffers[which]);
        buffers[which] = '';
      }
    },
  };
}

/** Kills a whole process group, ignoring groups that are already gone. */
export function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group has already exited
  }
}

/**
 * Runs a process in its own process group (detached), streaming its output by lines. On timeout or
 * abort the whole group gets SIGTERM, then SIGKILL after `killGraceMs`. Resolves once the process has
 * exited and its output is drained (drainAfterExit: background children holding the pipes are not waited for).
 */
export function spawnProcess(options: SpawnOptions): Promise<SpawnResult> {
  return new Promise((resolve) => {
    let timedOut = false;
    let cancelled = false;
    let settled = false;
    const child = spawn(options.file, options.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    const feeder = lineFeeder(options.onLine, options.onBytes);
    let lastOutputAt = 0;
    child.stdout.on('data', (c: Buffer) => {
      lastOutputAt = Date.now();
      feeder.feed('out', c);
    });
    child.stderr.on('data', (c: Buffer) => {
      lastOutputAt = Date.now();
      feeder.feed('err', c);
    });
    const timers: NodeJS.Timeout[] = [];
    const terminate = (): void => {
      if (child.pid === undefined) return;
      const pid = child.pid;
      killGroup(pid, 'SIGTERM');
      timers.push(setTimeout(() => killGroup(pid, 'SIGKILL'), options.killGraceMs));
    };
    const onAbort = (): void => {
      if (settled) return;
      cancelled = true;
      terminate();
    };
    if (Number.isFinite(options.timeoutMs)) {
      timers.push(
        setTimeout(() => {
          if (settled) return;
          timedOut = true;
          terminate();
        }, Math.max(0, options.timeoutMs)),
      );
    }
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    const finish = (result: SpawnResult): void => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener('abort', onAbort);
      for (const t of timers) clearTimeout(t);
      feeder.flush();
      resolve(result);
    };
    child.on('error', (error) => finish({ exitCode: null, timedOut, cancelled, spawnError: error.message }));
    child.on('exit', (code, signal) => {
      const exitCode = code ?? (signal === null ? null : 128 + signalNumber(signal));
      if (child.stdout.readableEnded && child.stderr.readableEnded) {
        finish({ exitCode, timedOut, cancelled, spawnError: null });
        return;
      }
      let drained = false;
      const done = (): void => {
        if (drained) return;
        drained = true;
        child.stdout.destroy();
        child.stderr.destroy();
        finish({ exitCode, timedOut, cancelled, spawnError: null });
      };
      child.on('close', done);
      drainAfterExit(child.pid ?? 0, () => lastOutputAt, () => drained, done);
    });
  });
}

/** Output idle this long after the process exited while its group lives on (background processes hold the pipes): done. */
const DRAIN_IDLE_MS = 100;
/** At most this long after the exit: a background process that keeps writing, or one that left the group (setsid). */
const DRAIN_CAP_MS = 5_000;

/**
 * Decides when the output of an exited process is complete, unless both pipes close first (`done` is then called by
 * the caller's 'close' handler). Everything the process wrote before it exited is in the pipes: each check runs
 * after a poll phase (setImmediate), so it is read first however late a loaded machine runs the timer (a fixed
 * 100 ms timer used to fire before the pipes were read, and a step's last lines were lost). While the process
 * group still has live members (background processes holding the pipes), the output is complete once it stays idle
 * for DRAIN_IDLE_MS; with no member left, the pipes are about to close and are waited for, up to DRAIN_CAP_MS.
 */
function drainAfterExit(pid: number, lastOutputAt: () => number, drained: () => boolean, done: () => void): void {
  const exitedAt = Date.now();
  const check = (): void => {
    // The pipes closed first: nothing left to decide (no more timers, nothing keeps the process alive).
    if (drained()) return;
    const now = Date.now();
    if (now - exitedAt >= DRAIN_CAP_MS || (groupAlive(pid) && now - Math.max(lastOutputAt(), exitedAt) >= DRAIN_IDLE_MS)) {
      done();
      return;
    }
    setTimeout(() => setImmediate(check), DRAIN_IDLE_MS / 4);
  };
  setImmediate(check);
}

/** Whether a process of the group `pid` leads is still alive (a background process the step started). */
function groupAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    // EPERM: a member runs as another user (the sandbox's step user): alive all the same.
    return typeof error === 'object' && error !== null && 'code' in error && error.code === 'EPERM';
  }
}

export function signalNumber(signal: NodeJS.Signals): number {
  return constants.signals[signal] ?? 1;
}
