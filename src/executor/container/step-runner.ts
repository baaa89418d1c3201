import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import type { SpawnOptions, SpawnResult } from '../spawn-process.js';
import { lineFeeder, signalNumber } from '../spawn-process.js';

/**
 * The job container's step runner: a small Node.js program (the host's Node.js, bound at /__e/node20) the container's
 * `sh` starts as its only child, which starts each step's process in the container (`spawn`, detached: a process
 * group per step) with exactly the environment, working directory and uid a `docker exec` would give it, and relays
 * its stdout/stderr and exit status over a unix socket in a directory bound from the host. One exec per step
 * (~150–300 ms through dockerd and runc) becomes a fork in the container. Where it cannot run (an image whose libc
 * the host's Node.js does not run on), the container's `sh` falls back to `tail -f /dev/null` and steps are
 * `docker exec`s as before. Protocol: one JSON object per line each way.
 */
export const STEP_RUNNER_SOURCE = `'use strict';
const net = require('net');
const cp = require('child_process');
const fs = require('fs');
const sock = process.argv[2];
try { fs.unlinkSync(sock); } catch {}
const server = net.createServer((conn) => {
  const children = new Map();
  let buffer = '';
  let paused = false;
  const send = (message) => {
    if (conn.destroyed) return;
    if (!conn.write(JSON.stringify(message) + '\\n') && !paused) {
      paused = true;
      for (const c of children.values()) { c.stdout.pause(); c.stderr.pause(); }
      conn.once('drain', () => { paused = false; for (const c of children.values()) { c.stdout.resume(); c.stderr.resume(); } });
    }
  };
  const run = (m) => {
    let child;
    try {
      child = cp.spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      send({ ev: 'error', id: m.id, message: String(e && e.message) });
      return;
    }
    let ended = false;
    child.on('error', (e) => {
      if (ended) return;
      ended = true;
      children.delete(m.id);
      send({ ev: 'error', id: m.id, message: String(e && e.message) });
    });
    if (child.pid === undefined) return;
    children.set(m.id, child);
    send({ ev: 'started', id: m.id, pid: child.pid });
    let lastOut = 0;
    child.stdout.on('data', (c) => { lastOut = Date.now(); send({ ev: 'out', id: m.id, d: c.toString('base64') }); });
    child.stderr.on('data', (c) => { lastOut = Date.now(); send({ ev: 'err', id: m.id, d: c.toString('base64') }); });
    child.on('exit', (code, signal) => {
      const finish = () => {
        if (ended) return;
        ended = true;
        child.stdout.destroy();
        child.stderr.destroy();
        children.delete(m.id);
        send({ ev: 'exit', id: m.id, code, signal });
      };
      if (child.stdout.readableEnded && child.stderr.readableEnded) return finish();
      child.on('close', finish);
      // As spawnProcess's drainAfterExit: each check after a poll phase; idle 100 ms while the group lives, at most 5 s.
      const exitedAt = Date.now();
      const groupAlive = () => { try { process.kill(-child.pid, 0); return true; } catch (e) { return Boolean(e) && e.code === 'EPERM'; } };
      const check = () => {
        if (ended) return;
        const now = Date.now();
        if (now - exitedAt >= 5000 || (groupAlive() && now - Math.max(lastOut, exitedAt) >= 100)) return finish();
        setTimeout(() => setImmediate(check), 25);
      };
      setImmediate(check);
    });
  };
  conn.on('data', (data) => {
    buffer += data.toString('utf8');
    for (let i = buffer.indexOf('\\n'); i >= 0; i = buffer.indexOf('\\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      let m;
      try { m = JSON.parse(line); } catch { continue; }
      if (m.op === 'run') run(m);
      else if (m.op === 'kill') {
        const c = children.get(m.id);
        if (c !== undefined) try { process.kill(-c.pid, m.signal); } catch {}
      }
    }
  });
  conn.on('error', () => {});
  conn.on('close', () => { for (const c of children.values()) try { process.kill(-c.pid, 'SIGKILL'); } catch {} });
});
server.listen(sock, () => fs.chmodSync(sock, 0o600));
`;

/** Where the runner's files are inside the container. */
export const RUNNER_SCRIPT = '/__e/step-runner.cjs';
export const RUNNER_SOCKET_DIR = '/__e/runner';

/**
 * The job container's entrypoint: `sh` (PID 1, never a step process for the watchdog) starts the runner as its only
 * child and, once the runner is gone or could not start, keeps the container alive with `tail -f /dev/null`.
 */
export function runnerEntrypoint(node: string): { entrypoint: string; cmd: string[] } {
  return { entrypoint: 'sh', cmd: ['-c', `"$0" --v8-pool-size=1 ${RUNNER_SCRIPT} ${RUNNER_SOCKET_DIR}/sock </dev/null >/dev/null 2>&1; exec tail -f /dev/null`, node] };
}

export interface StepRunner {
  alive(): boolean;
  /**
   * Runs a step process like spawnProcess (same lines, timeout, abort, SIGTERM then SIGKILL after the grace, exit
   * code or 128+signal); `onSpawn` gets the host pid of the step's process (from `hostPid`) when it is found.
   */
  spawn(options: SpawnOptions, hostPid: (containerPid: number) => number | null): Promise<SpawnResult>;
  close(): void;
}

type RunnerEvent =
  | { ev: 'started'; id: number; pid: number }
  | { ev: 'out' | 'err'; id: number; d: string }
  | { ev: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { ev: 'error'; id: number; message: string };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Connects to the runner's socket once it appears (null when it does not within `timeoutMs`: use `docker exec`). */
export async function connectStepRunner(socketPath: string, timeoutMs: number, stillStarting: () => boolean): Promise<StepRunner | null> {
  const deadline = Date.now() + timeoutMs;
  let socket: Socket | null = null;
  while (socket === null && Date.now() < deadline && stillStarting()) {
    if (existsSync(socketPath)) {
      socket = await new Promise<Socket | null>((resolve) => {
        const s = connect(socketPath);
        s.once('connect', () => resolve(s));
        s.once('error', () => resolve(null));
      });
    }
    if (socket === null) await sleep(15);
  }
  if (socket === null) return null;
  return runnerClient(socket);
}

function runnerClient(socket: Socket): StepRunner {
  let open = true;
  let nextId = 1;
  const handlers = new Map<number, (event: RunnerEvent | null) => void>();
  let buffer = '';
  socket.setNoDelay(true);
  socket.on('data', (data: Buffer) => {
    buffer += data.toString('utf8');
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      let event: RunnerEvent;
      try {
        event = JSON.parse(line) as RunnerEvent;
      } catch {
        continue;
      }
      handlers.get(event.id)?.(event);
    }
  });
  const closed = (): void => {
    open = false;
    for (const handler of [...handlers.values()]) handler(null);
    handlers.clear();
  };
  socket.on('close', closed);
  socket.on('error', () => socket.destroy());
  const send = (message: unknown): void => {
    if (open) socket.write(`${JSON.stringify(message)}\n`);
  };
  return {
    alive: () => open,
    close: () => {
      open = false;
      socket.destroy();
    },
    spawn: (options, hostPid) =>
      new Promise((resolve) => {
        const id = nextId;
        nextId += 1;
        let timedOut = false;
        let cancelled = false;
        let settled = false;
        const timers: NodeJS.Timeout[] = [];
        const feeder = lineFeeder(options.onLine, options.onBytes);
        const terminate = (): void => {
          send({ op: 'kill', id, signal: 'SIGTERM' });
          timers.push(setTimeout(() => send({ op: 'kill', id, signal: 'SIGKILL' }), options.killGraceMs));
        };
        const onAbort = (): void => {
          if (settled) return;
          cancelled = true;
          terminate();
        };
        const finish = (result: SpawnResult): void => {
          if (settled) return;
          settled = true;
          handlers.delete(id);
          options.signal.removeEventListener('abort', onAbort);
          for (const t of timers) clearTimeout(t);
          feeder.flush();
          resolve(result);
        };
        handlers.set(id, (event) => {
          if (event === null) {
            finish({ exitCode: null, timedOut, cancelled, spawnError: 'the step runner of the job container stopped while the step ran (a step killed it?)' });
            return;
          }
          if (event.ev === 'started') {
            const pid = hostPid(event.pid);
            if (pid !== null) options.onSpawn?.(pid);
          } else if ('d' in event) {
            feeder.feed(event.ev, Buffer.from(event.d, 'base64'));
          } else if (event.ev === 'exit') {
            finish({ exitCode: event.code ?? (event.signal === null ? null : 128 + signalNumber(event.signal)), timedOut, cancelled, spawnError: null });
          } else if (event.ev === 'error') {
            finish({ exitCode: null, timedOut, cancelled, spawnError: event.message });
          }
        });
        if (!open) {
          finish({ exitCode: null, timedOut, cancelled, spawnError: 'the step runner of the job container is not running' });
          return;
        }
        send({ op: 'run', id, file: options.file, args: options.args, cwd: options.cwd, env: options.env });
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
      }),
  };
}
