import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../../src/db/generated/client.js';
import { createDb, createRepositories, migrate, type DbClient } from '../../../src/db/index.js';
import { mapDbError } from '../../../src/db/map-error.js';
import { isAppError } from '../../../src/errors.js';
import { migrationsDir } from '../../../src/paths.js';
import { startPrivatePostgres, type PrivatePostgres } from '../../support/private-postgres.js';

const unavailable = (error: unknown): boolean => isAppError(error) && error.kind === 'transient' && error.code === 'database_unavailable';
const failure = async (work: () => Promise<unknown>): Promise<unknown> => {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
};

/** Real connection failures, from a private Postgres cluster (stopped, connections terminated) and a silent server. */
describe('database connection failures are typed at the src/db boundary', () => {
  let postgres: PrivatePostgres;
  let hole: Server;
  let holeUrl: string;

  beforeAll(async () => {
    postgres = await startPrivatePostgres();
    // Accepts TCP connections and never answers: a connect that times out.
    hole = createServer(() => undefined);
    await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', resolve));
    holeUrl = `postgresql://postgres@127.0.0.1:${(hole.address() as AddressInfo).port}/x`;
  }, 180_000);
  afterAll(async () => {
    hole?.close();
    await postgres?.destroy();
  });

  it('every repository method that reaches a dead server rejects with database_unavailable, never an untyped driver error', async () => {
    const db = createDb({ url: 'postgresql://postgres@127.0.0.1:1/x', connectTimeoutMs: 500 });
    const repos = createRepositories(db) as unknown as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>;
    const id = randomUUID();
    // Generic arguments: enough for most methods to reach the database; the rest stop at argument validation.
    const argumentSets: unknown[][] = [[id, id, {}], [{ limit: 1 }], [[id]], [id, ['queued'], 'running', {}]];
    let reached = 0;
    const untyped: string[] = [];
    for (const [name, repository] of Object.entries(repos)) {
      for (const [method, call] of Object.entries(repository)) {
        for (const args of argumentSets) {
          const error = await Promise.resolve()
            .then(() => call(...args))
            .then(
            () => null,
            (caught: unknown) => caught,
          );
          if (unavailable(error)) {
            reached += 1;
            break;
          }
          // Anything else must not be a connection failure that escaped the boundary.
          if (error !== null && !(error instanceof Prisma.PrismaClientValidationError) && !(error instanceof TypeError) && !isAppError(error)) untyped.push(`${name}.${method}: ${String(error)}`);
        }
      }
    }
    expect(untyped).toEqual([]);
    expect(reached).toBeGreaterThanOrEqual(45);
    await db.close();
  });

  it('types a connect that times out, a pool that is exhausted, a transaction whose connection is terminated, and a server that stops', async () => {
    const silent = createDb({ url: holeUrl, connectTimeoutMs: 300 });
    for (const work of [() => silent.prisma.run.count(), () => silent.pool.query('SELECT 1'), () => silent.prisma.$transaction(async (tx) => tx.run.count())]) {
      expect(unavailable(mapDbError(await failure(work)))).toBe(true);
    }
    await silent.close();

    const db: DbClient = createDb({ url: postgres.url(), connectTimeoutMs: 300, maxConnections: 1 });
    await migrate({ pool: db.pool, dir: migrationsDir() });
    // One connection, held by a transaction: the next query waits for the pool and times out.
    const held = db.prisma.$transaction(async (tx) => {
      await tx.run.count();
      await new Promise((resolve) => setTimeout(resolve, 1200));
    }, { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unavailable(mapDbError(await failure(() => db.prisma.run.count())))).toBe(true);
    await held;

    // The server terminates the connection in the middle of an interactive transaction (no SQLSTATE reaches the caller).
    const admin = createDb({ url: postgres.url() });
    const doomed = failure(() =>
      db.prisma.$transaction(async (tx) => {
        await tx.run.count();
        await new Promise((resolve) => setTimeout(resolve, 800));
        await tx.run.count();
      }, { timeout: 5000 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await admin.pool.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND backend_type = 'client backend' AND datname = 'postgres'`);
    await admin.close();
    const terminated = await doomed;
    expect(terminated).not.toHaveProperty('code');
    expect(unavailable(mapDbError(terminated))).toBe(true);

    // A fast shutdown while a statement runs (57P01), then a refused connection, through Prisma and through pg.
    const running = failure(() => db.prisma.$queryRawUnsafe('SELECT pg_sleep(5)'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await postgres.stop();
    expect(unavailable(mapDbError(await running))).toBe(true);
    const repos = createRepositories(db);
    await expect(repos.runs.get(randomUUID())).rejects.toMatchObject({ code: 'database_unavailable' });
    await expect(repos.submissions.list({ limit: 1 })).rejects.toMatchObject({ code: 'database_unavailable' });
    await expect(repos.deliveries.recordMany([{ id: randomUUID(), event: 'ping', action: null, hookId: null, installationId: null, repoFullName: null, payload: '{}' }])).rejects.toMatchObject({
      code: 'database_unavailable',
    });
    await postgres.start();
    expect(await repos.runs.get(randomUUID())).toBeNull();
    await db.close();
  }, 180_000);
});
