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
 * exited and its output is drained (background children holding the pipes are not waited for).
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
    child.stdout.on('data', (c: Buffer) => feeder.feed('out', c));
    child.stderr.on('data', (c: Buffer) => feeder.feed('err', c));
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
      let closed = child.stdout.readableEnded && child.stderr.readableEnded;
      const done = (): void => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish({ exitCode, timedOut, cancelled, spawnError: null });
      };
      if (closed) {
        done();
        return;
      }
      // Give the pipes a moment to drain; background processes may hold them open.
      const drain = setTimeout(done, 100);
      child.on('close', () => {
        closed = true;
        clearTimeout(drain);
        done();
      });
    });
  });
}

export function signalNumber(signal: NodeJS.Signals): number {
  return constants.signals[signal] ?? 1;
}
