import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Logger } from 'pino';
import { PrismaClient } from './generated/client.js';
import { createGuardedPool } from './guarded-pool.js';

export type Prisma = PrismaClient;

export interface DbClient {
  prisma: PrismaClient;
  pool: pg.Pool;
  schema: string;
  close(): Promise<void>;
}

export interface DbOptions {
  url: string;
  /** Postgres schema holding the tables (tests use one schema per test file). */
  schema?: string;
  maxConnections?: number;
  logger?: Logger;
  /** How long acquiring a new connection may take (default 10 s). */
  connectTimeoutMs?: number;
}

/** Builds the Prisma client (driver adapter, no engine binary) and a pg pool sharing one connection budget. */
export function createDb(options: DbOptions): DbClient {
  const schema = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const poolConfig: pg.PoolConfig = {
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    // An unreachable host fails within this, instead of the operating system's TCP timeout (minutes).
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    options: `-c search_path=${schema}`,
  };
  // Marks connection failures that carry no SQLSTATE, so mapDbError types them wherever they surface.
  const pool = createGuardedPool(poolConfig);
  pool.on('error', (error) => options.logger?.warn({ err: error }, 'idle postgres connection failed'));
  const adapter = new PrismaPg(pool, { schema });
  const prisma = new PrismaClient({ adapter });
  return {
    prisma,
    pool,
    schema,
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}
