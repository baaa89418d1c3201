import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { projectRoot } from '../../src/paths.js';
import { serviceEntry } from './service-entry.js';

/** One line of the worker's pino output. */
export type LogRecord = Record<string, unknown> & { msg?: string; level?: number };

/**
 * The real `ci-replay worker` (serviceEntry(): the test build's src/main.js) as a child process with the environment
 * a test chose, so it can be SIGKILLed or SIGTERMed like a production worker. Its pino log lines are parsed and kept.
 */
export interface WorkerProcess {
  readonly pid: number;
  readonly logs: LogRecord[];
  /** Resolves with the exit code and signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits until `count` log lines match (default 1); returns them. */
  waitForLog(match: (record: LogRecord) => boolean, options?: { count?: number; timeoutMs?: number }): Promise<LogRecord[]>;
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startWorkerProcess(env: Record<string, string>): WorkerProcess {
  const child: ChildProcess = spawn(process.execPath, [...serviceEntry(), 'worker'], {
    cwd: projectRoot(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', LANG: 'C.UTF-8', NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogRecord[] = [];
  const waiters = new Set<() => void>();
  // The service logs (pino JSON) to stderr; anything else there is kept as text for failure messages.
  let stderr = '';
  createInterface({ input: child.stderr! }).on('line', (line) => {
    try {
      logs.push(JSON.parse(line) as LogRecord);
    } catch {
      if (stderr.length < 20_000) stderr += `${line}\n`;
    }
    for (const waiter of waiters) waiter();
  });
  child.stdout!.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const waiter of waiters) waiter();
      resolve({ code, signal });
    }),
  );
  return {
    pid: child.pid ?? 0,
    logs,
    exited,
    waitForLog(match, options = {}) {
      const count = options.count ?? 1;
      const timeoutMs = options.timeoutMs ?? 60_000;
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = logs.filter(match);
          if (found.length >= count) {
            finish();
            resolve(found);
            return;
          }
          if (child.exitCode !== null || child.signalCode !== null) {
            finish();
            reject(new Error(`the worker exited (${child.exitCode ?? child.signalCode}) before the log line appeared; stderr: ${stderr.slice(-2000)}`));
          }
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`log line not seen within ${timeoutMs} ms; last lines: ${JSON.stringify(logs.slice(-8))}; stderr: ${stderr.slice(-2000)}`));
        }, timeoutMs);
        const finish = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
