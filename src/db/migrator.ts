import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';
import { permanent } from '../errors.js';

/**
 * Applies prisma/migrations/<stamp>_<name>/migration.sql in order and records them in _prisma_migrations
 * exactly as `prisma migrate deploy` does (same table, columns, sha256 checksum of the file, same advisory
 * lock key), so the two stay interchangeable.
 */
const PRISMA_ADVISORY_LOCK = 72707369;

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrationStatus {
  applied: string[];
  pending: string[];
  current: boolean;
}

export async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

async function appliedRows(client: pg.PoolClient | pg.Pool): Promise<AppliedRow[]> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
  if (exists.rows[0]?.t == null) return [];
  const result = await client.query<AppliedRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" ORDER BY started_at, migration_name`,
  );
  return result.rows;
}

function verify(files: MigrationFile[], rows: AppliedRow[]): void {
  const byName = new Map(files.map((file) => [file.name, file]));
  for (const row of rows) {
    if (row.rolled_back_at !== null) continue;
    if (row.finished_at === null) {
      throw permanent('migration_failed', `migration ${row.migration_name} started but did not finish; resolve it by hand before migrating again`);
    }
    const file = byName.get(row.migration_name);
    if (file !== undefined && file.checksum !== row.checksum) {
      throw permanent(
        'migration_checksum_mismatch',
        `migration ${row.migration_name} was modified after it was applied (checksum ${row.checksum.slice(0, 12)}… in the database, ${file.checksum.slice(0, 12)}… on disk); restore the file and add a new migration instead`,
      );
    }
  }
}

export async function migrationStatus(pool: pg.Pool, dir: string): Promise<MigrationStatus> {
  const files = await readMigrations(dir);
  const rows = await appliedRows(pool);
  const applied = new Set(rows.filter((row) => row.finished_at !== null && row.rolled_back_at === null).map((row) => row.migration_name));
  const pending = files.map((file) => file.name).filter((name) => !applied.has(name));
  return { applied: [...applied], pending, current: pending.length === 0 };
}

/** Applies pending migrations under Prisma's advisory lock; each one in its own transaction. */
export async function migrate(options: { pool: pg.Pool; dir: string; logger?: Logger }): Promise<string[]> {
  const files = await readMigrations(options.dir);
  const client = await options.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK]);
    try {
      await client.query(CREATE_TABLE);
      const rows = await appliedRows(client);
      verify(files, rows);
      const done = new Set(rows.filter((row) => row.finished_at !== null && row.rolled_back_at === null).map((row) => row.migration_name));
      const applied: string[] = [];
      for (const file of files) {
        if (done.has(file.name)) continue;
        options.logger?.info({ migration: file.name }, 'applying migration');
        await applyOne(client, file);
        applied.push(file.name);
      }
      return applied;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK]);
    }
  } finally {
    client.release();
  }
}

async function applyOne(client: pg.PoolClient, file: MigrationFile): Promise<void> {
  const id = randomUUID();
  await client.query('BEGIN');
  try {
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
      [id, file.checksum, file.name],
    );
    await client.query(file.sql);
    await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw permanent('migration_failed', `migration ${file.name} failed: ${(error as Error).message}`, error);
  }
}

/** Creates the database named in `url` when it does not exist yet (connecting to the server's `postgres` database). */
export async function ensureDatabase(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (name === '' || !/^[A-Za-z0-9_-]+$/.test(name)) return false;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount !== 0) return false;
    await client.query(`CREATE DATABASE "${name}"`);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === '42P04') return false;
    throw error;
  } finally {
    await client.end();
  }
}
