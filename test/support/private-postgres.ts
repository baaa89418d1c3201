import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A Postgres cluster of its own for fault tests (initdb + pg_ctl on a free port under a temp dir), so a test
 * may stop and start it without touching the shared server on 5432. As root, the cluster runs as `postgres`
 * (initdb refuses root).
 */
export interface PrivatePostgres {
  port: number;
  /** postgresql://postgres@127.0.0.1:<port>/<database> */
  url(database?: string): string;
  /** Fast shutdown: open connections are terminated (SQLSTATE 57P01), new ones refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster (if running) and removes its directory. */
  destroy(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((version) => join(root, version, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  if (found === undefined) throw new Error('no Postgres server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
  return found;
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

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const root = await mkdtemp(join(tmpdir(), 'ci-replay-pg-'));
  const dataDir = join(root, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(root, Number(stdout.trim()), Number(gid.trim()));
  }
  const pgRun = (tool: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]) : run(join(bin, tool), args));
  await pgRun('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  // Small and quick: no fsync (a test cluster), unix socket in the temp dir, only TCP on loopback.
  const options = `-p ${port} -k ${root} -h 127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
  let running = false;
  const start = async (): Promise<void> => {
    await pgRun('pg_ctl', ['-D', dataDir, '-o', options, '-l', join(root, 'server.log'), '-w', '-t', '60', 'start']);
    running = true;
  };
  const stop = async (): Promise<void> => {
    await pgRun('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
    running = false;
  };
  await start();
  return {
    port,
    url: (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    stop,
    start,
    async destroy() {
      if (running) await stop().catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}
