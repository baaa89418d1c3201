import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/**
 * A Redis server of its own for fault tests (redis-server on a free port, no persistence: `--save ""
 * --appendonly no`, its directory a temp dir), so a test may flush, kill and restart it without touching the shared
 * server on 6379. Restarting it gives an empty Redis, as a restart without persistence does.
 */
export interface PrivateRedis {
  port: number;
  /** redis://127.0.0.1:<port> */
  url: string;
  /** FLUSHALL: every key gone, connections kept. */
  flushAll(): Promise<void>;
  /** SIGKILL: connections drop; nothing is saved. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Starts it again (empty) when a test left it killed; a running server is left alone. */
  ensureRunning(): Promise<void>;
  destroy(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function ping(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`private Redis on ${url} did not answer: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      client.disconnect();
    }
  }
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'ci-replay-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--maxmemory-policy', 'noeviction', '--loglevel', 'warning'], {
      stdio: 'ignore',
    });
    server = child;
    await ping(url, 10_000);
  };
  const kill = async (): Promise<void> => {
    const child = server;
    server = null;
    if (child === null || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    port,
    url,
    async flushAll() {
      const client = new Redis(url);
      try {
        await client.flushall();
      } finally {
        client.disconnect();
      }
    },
    kill,
    start,
    async ensureRunning() {
      const child: ChildProcess | null = server;
      if (child === null || child.exitCode !== null) await start();
    },
    async destroy() {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
