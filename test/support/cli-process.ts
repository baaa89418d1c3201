import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { adminUrl } from './test-database.js';
import { serviceEntry } from './service-entry.js';

export interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface CliRunOptions {
  stdin?: string;
  extraEnv?: Record<string, string>;
  maxBuffer?: number;
}

/**
 * A spawned `ci-replay` CLI with a database, a queue prefix and a data folder of its own (the CLI integration tests
 * run the real binary). `env` is what each invocation gets; tests add to it before they run the CLI.
 */
export interface CliSandbox {
  readonly database: string;
  readonly databaseUrl: string;
  /** A temporary folder: the CLI's working directory; DATA_DIR is `<dir>/data`. */
  readonly dir: string;
  readonly env: Record<string, string>;
  cli(args: string[], options?: CliRunOptions): Promise<CliResult>;
  destroy(): Promise<void>;
}

/** Runs the CLI (serviceEntry(): the test build's entry point; bin/ci-replay.js is closed-pipe.test.ts's); a non-zero exit is a result, not an error (only a failure to spawn rejects). */
export function runCli(args: string[], env: Record<string, string>, cwd: string, options: CliRunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [...serviceEntry(), ...args], { env: { ...env, ...options.extraEnv }, cwd, maxBuffer: options.maxBuffer ?? 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -1;
      if (code === -1) reject(error);
      else resolve({ stdout, stderr, code });
    });
    child.stdin?.end(options.stdin ?? '');
  });
}

/**
 * Creates the database (empty: run `migrate` through the CLI when the test needs the schema) and the folder. The
 * environment pins host mode (`LOCAL_RUNTIME=host`) unless `env` says otherwise, so results do not depend on whether
 * the machine has a container runtime.
 */
export async function createCliSandbox(options: { prefix: string; env?: Record<string, string> }): Promise<CliSandbox> {
  const suffix = randomBytes(4).toString('hex');
  const database = `ci_replay_${options.prefix.replace(/[^a-z0-9]/g, '_')}_${suffix}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const dir = await mkdtemp(join(tmpdir(), `ci-replay-${options.prefix}-`));
  const databaseUrl = `postgresql://postgres@127.0.0.1:5432/${database}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `${options.prefix}-${suffix}`,
    DATA_DIR: join(dir, 'data'),
    LOG_LEVEL: 'warn',
    LOCAL_RUNTIME: 'host',
    ...options.env,
  };
  return {
    database,
    databaseUrl,
    dir,
    env,
    cli: (args, runOptions) => runCli(args, env, dir, runOptions),
    async destroy() {
      const dropper = new pg.Client({ connectionString: adminUrl() });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
