import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildForTests } from './test-build.js';
import { TEST_DATABASE, adminUrl } from './test-database.js';

/**
 * Creates the test database once per test run (each test file then works in its own schema) and the test build the
 * spawned CLI and worker processes run (test-build.ts).
 */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('testBuild', await buildForTests());
  await createTestDatabase();
}

/**
 * Creates the test database when it does not exist yet (the benches call it too). `npm test` starts two runs at once
 * (scripts/test-lanes.mjs): when both find it missing, the one that loses the race finds it created.
 */
export async function createTestDatabase(): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEST_DATABASE]);
    if (exists.rowCount === 0) {
      await client.query(`CREATE DATABASE ${TEST_DATABASE}`).catch((error: unknown) => {
        // 42P04 duplicate_database; 23505 when both inserted into pg_database at the same moment.
        const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
        if (code !== '42P04' && code !== '23505') throw error;
      });
    }
  } finally {
    await client.end();
  }
}
