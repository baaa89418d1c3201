import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { migrate } from '../../src/db/index.js';
import { createDeps, type Deps, type DepsOverrides } from '../../src/deps.js';
import { migrationsDir } from '../../src/paths.js';
import { testDatabaseUrl, testRedisUrl } from './test-database.js';

export interface TestEnv {
  deps: Deps;
  config: Config;
  schema: string;
  dataDir: string;
  logger: Logger;
  cleanup(): Promise<void>;
}

/** A fresh, isolated environment: own Postgres schema (migrated), own queue prefix, own data dir (env overrides settings, DATABASE_URL included). */
export async function createTestEnv(env: Record<string, string> = {}, overrides: Omit<DepsOverrides, 'logger' | 'dbSchema'> = {}): Promise<TestEnv> {
  const suffix = randomBytes(5).toString('hex');
  const schema = `t_${suffix}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'ci-replay-test-'));
  // `env.DATABASE_URL` points the environment at another server (fault tests run a private cluster).
  const databaseUrl = env.DATABASE_URL ?? testDatabaseUrl();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: testDatabaseUrl(),
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: `test-${suffix}`,
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://ci-replay.test',
    // jobs run on the host unless a test (or the environment) asks for containers (docs/local-containers.md)
    LOCAL_RUNTIME: process.env.LOCAL_RUNTIME ?? 'host',
    ...env,
  });
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const deps = createDeps(config, { ...overrides, logger, dbSchema: schema });
  await migrate({ pool: deps.db.pool, dir: migrationsDir() });
  return {
    deps,
    config,
    schema,
    dataDir,
    logger,
    async cleanup() {
      await deps.close();
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
      await deleteQueueKeys(config.queuePrefix);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function deleteQueueKeys(prefix: string): Promise<void> {
  const redis = new Redis(testRedisUrl());
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
