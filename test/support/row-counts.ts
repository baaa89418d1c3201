import type { TestEnv } from './test-env.js';

/** Row count of every table in the environment's schema (what rejected input must leave unchanged). */
export async function rowCounts(env: TestEnv): Promise<Record<string, number>> {
  const tables = await env.deps.db.pool.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name <> '_prisma_migrations' ORDER BY 1`,
    [env.schema],
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const result = await env.deps.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`);
    counts[name] = result.rows[0]?.n ?? 0;
  }
  return counts;
}
