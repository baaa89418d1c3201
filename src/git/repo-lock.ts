import { spawn } from 'node:child_process';
import { AppError } from '../errors.js';

/** Default time to wait for another process holding the same repository lock. */
export const DEFAULT_LOCK_TIMEOUT_MS = 600_000;

/** Serializes work per key: within this process by a promise chain, across processes by `flock(1)`. */
export interface RepoLock {
  /** Runs `fn` while holding the lock named `key`, backed by the lock file `lockFile`. */
  withLock<T>(key: string, lockFile: string, fn: () => Promise<T>): Promise<T>;
}

/**
 * Creates a lock registry. The in-process chain keeps two callers of the same instance from even
 * contending for the file lock; the file lock (held by a `flock` child process whose stdin is our pipe,
 * so it is released when we close it or when this process dies) excludes other processes.
 */
export function createRepoLock(options: { timeoutMs?: number } = {}): RepoLock {
  const tails = new Map<string, Promise<unknown>>();
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  return {
    async withLock<T>(key: string, lockFile: string, fn: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve();
      const run = previous.catch(() => undefined).then(async () => {
        const release = await acquireFileLock(lockFile, timeoutMs);
        try {
          return await fn();
        } finally {
          await release();
        }
      });
      const tail = run.catch(() => undefined);
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return run;
    },
  };
}

/**
 * Takes an exclusive lock on `lockFile` by spawning `flock -x -w <s> <file> sh -c 'echo locked; exec cat'`.
 * Resolves with a release function once `flock` reports the lock held.
 */
export function acquireFileLock(lockFile: string, timeoutMs: number): Promise<() => Promise<void>> {
  const seconds = Math.max(1, Math.ceil(timeoutMs / 1000));
  return new Promise((resolve, reject) => {
    const child = spawn(
      'flock',
      ['--exclusive', '--wait', String(seconds), '--conflict-exit-code', '75', lockFile,
        'sh', '-c', 'echo locked; exec cat >/dev/null'],
      { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: '/usr/local/bin:/usr/bin:/bin' } },
    );
    let held = false;
    let stderr = '';
    const exited = new Promise<void>((done) => child.on('close', () => done()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (held || !chunk.toString('utf8').includes('locked')) return;
      held = true;
      resolve(async () => {
        child.stdin.end();
        await exited;
      });
    });
    child.on('error', (error) => {
      reject(new AppError('permanent', 'flock could not be started', { code: 'lock_unavailable', cause: error }));
    });
    child.on('close', (code) => {
      if (held) return;
      const kind = code === 75 ? 'transient' : 'permanent';
      reject(new AppError(kind, 'repository lock not acquired', {
        code: code === 75 ? 'lock_timeout' : 'lock_failed',
        details: { lockFile, exitCode: code, stderr: stderr.slice(-2000) },
      }));
    });
  });
}
