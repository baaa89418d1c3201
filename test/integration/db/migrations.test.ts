import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb, createRepositories, migrate, migrationStatus, readMigrations, type DbClient } from '../../../src/db/index.js';
import { migrationsDir, projectRoot } from '../../../src/paths.js';
import { testDatabaseUrl } from '../../support/test-database.js';

interface ExpectedColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
}

const SCALARS: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'timestamp with time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};

/** Reads schema.prisma: every model's scalar fields, their Postgres types and nullability. */
function expectedColumns(schema: string): ExpectedColumn[] {
  const columns: ExpectedColumn[] = [];
  const models = new Set([...schema.matchAll(/^model (\w+) \{/gm)].map((match) => match[1]));
  for (const match of schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const table = match[1] ?? '';
    for (const line of (match[2] ?? '').split('\n')) {
      const field = /^\s+(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (field === null) continue;
      const [, column = '', type = '', list, optional, rest = ''] = field;
      if (models.has(type)) continue;
      let pgType = SCALARS[type];
      if (pgType === undefined) throw new Error(`unmapped prisma type ${type}`);
      if (rest.includes('@db.Uuid')) pgType = 'uuid';
      if (rest.includes('@db.Json')) pgType = 'json';
      columns.push({ table, column, type: list === undefined ? pgType : `${pgType}[]`, nullable: optional !== undefined || list !== undefined });
    }
  }
  return columns;
}

async function withSchema(): Promise<{ db: DbClient; schema: string; drop(): Promise<void> }> {
  const schema = `m_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = createDb({ url: testDatabaseUrl(), schema });
  return {
    db,
    schema,
    async drop() {
      await db.close();
      const client = new pg.Client({ connectionString: testDatabaseUrl() });
      await client.connect();
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

describe('migrations', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('produce exactly the tables and columns the Prisma schema expects', async () => {
    const { db, schema, drop } = await withSchema();
    cleanups.push(drop);
    await migrate({ pool: db.pool, dir: migrationsDir() });
    const actual = await db.pool.query<{ table_name: string; column_name: string; data_type: string; udt_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable FROM information_schema.columns WHERE table_schema = $1 AND table_name <> '_prisma_migrations'`,
      [schema],
    );
    const actualColumns = actual.rows
      .map((row) => ({
        table: row.table_name,
        column: row.column_name,
        type: row.data_type === 'ARRAY' ? `${row.udt_name === '_text' ? 'text' : row.udt_name}[]` : row.data_type,
        nullable: row.is_nullable === 'YES',
      }))
      .sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));
    const expected = expectedColumns(await readFile(join(projectRoot(), 'prisma', 'schema.prisma'), 'utf8')).sort((a, b) =>
      `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`),
    );
    expect(actualColumns).toEqual(expected);
    // The generated client works against the migrated schema.
    await db.prisma.run.create({ data: { label: 'smoke' } });
    expect(await db.prisma.run.count()).toBe(1);
  });

  it('records migrations like prisma migrate deploy, is idempotent, and reports status', async () => {
    const { db, drop } = await withSchema();
    cleanups.push(drop);
    const files = await readMigrations(migrationsDir());
    expect(await migrate({ pool: db.pool, dir: migrationsDir() })).toEqual(files.map((file) => file.name));
    expect(await migrate({ pool: db.pool, dir: migrationsDir() })).toEqual([]);
    const rows = await db.pool.query(`SELECT migration_name, checksum, finished_at, applied_steps_count, rolled_back_at, logs FROM "_prisma_migrations"`);
    expect(rows.rows).toHaveLength(files.length);
    expect(rows.rows[0]).toMatchObject({ migration_name: files[0]?.name, checksum: files[0]?.checksum, applied_steps_count: 1, rolled_back_at: null, logs: null });
    expect(rows.rows[0].finished_at).toBeInstanceOf(Date);
    expect(files[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(await migrationStatus(db.pool, migrationsDir())).toMatchObject({ current: true, pending: [] });
  });

  it('refuses to run when an applied migration was modified', async () => {
    const { db, drop } = await withSchema();
    cleanups.push(drop);
    const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await cp(migrationsDir(), dir, { recursive: true });
    await migrate({ pool: db.pool, dir });
    const [first] = await readMigrations(dir);
    await writeFile(join(dir, first!.name, 'migration.sql'), `${first!.sql}\n-- edited\n`);
    await expect(migrate({ pool: db.pool, dir })).rejects.toMatchObject({ code: 'migration_checksum_mismatch', kind: 'permanent' });
  });

  it('applies a new migration, rolls back a failing one and records nothing for it', async () => {
    const { db, drop } = await withSchema();
    cleanups.push(drop);
    const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await cp(migrationsDir(), dir, { recursive: true });
    await migrate({ pool: db.pool, dir });
    await cp(join(dir, (await readMigrations(dir))[0]!.name), join(dir, '29990101000000_broken'), { recursive: true });
    await writeFile(join(dir, '29990101000000_broken', 'migration.sql'), 'CREATE TABLE "Extra" (id int);\nSELECT * FROM no_such_table;\n');
    expect((await migrationStatus(db.pool, dir)).pending).toEqual(['29990101000000_broken']);
    await expect(migrate({ pool: db.pool, dir })).rejects.toMatchObject({ code: 'migration_failed' });
    const extra = await db.pool.query(`SELECT to_regclass('"Extra"') AS t`);
    expect(extra.rows[0].t).toBeNull();
    const rows = await db.pool.query(`SELECT migration_name FROM "_prisma_migrations" WHERE migration_name = '29990101000000_broken'`);
    expect(rows.rowCount).toBe(0);
  });

  it('keeps webhook payloads recorded before they were stored as bytes, verbatim and readable', async () => {
    const { db, drop } = await withSchema();
    cleanups.push(drop);
    const dir = await mkdtemp(join(tmpdir(), 'ci-replay-migrations-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const all = await readMigrations(migrationsDir());
    const converting = all.findIndex((file) => file.name.endsWith('_delivery_payload_bytes'));
    expect(converting).toBeGreaterThan(0);
    for (const file of all.slice(0, converting)) await cp(join(migrationsDir(), file.name), join(dir, file.name), { recursive: true });
    await migrate({ pool: db.pool, dir });
    const text = '{ "action" : "queued", "repository": {"full_name": "bench/é--x"} }';
    await db.pool.query(`INSERT INTO "WebhookDelivery" ("id", "event", "payload") VALUES ('old', 'workflow_job', $1::json)`, [text]);
    await migrate({ pool: db.pool, dir: migrationsDir() });
    const stored = await db.pool.query<{ payload: Buffer }>(`SELECT "payload" FROM "WebhookDelivery" WHERE "id" = 'old'`);
    expect(stored.rows[0]?.payload.toString('utf8')).toBe(text);
    expect((await createRepositories(db).deliveries.get('old'))?.payload).toEqual({ action: 'queued', repository: { full_name: 'bench/é--x' } });
  });

  it('lets only one process migrate at a time (advisory lock)', async () => {
    const { db, schema, drop } = await withSchema();
    cleanups.push(drop);
    const other = createDb({ url: testDatabaseUrl(), schema });
    cleanups.push(() => other.close());
    const results = await Promise.all([migrate({ pool: db.pool, dir: migrationsDir() }), migrate({ pool: other.pool, dir: migrationsDir() })]);
    const files = await readMigrations(migrationsDir());
    expect(results.flat().sort()).toEqual(files.map((file) => file.name).sort());
    const rows = await db.pool.query(`SELECT count(*)::int AS n FROM "_prisma_migrations"`);
    expect(rows.rows[0].n).toBe(files.length);
  });
});
