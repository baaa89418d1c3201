import pg from 'pg';
import { TEST_DATABASE, adminUrl } from './test-database.js';

/** Creates the test database once per test run; each test file then works in its own schema. */
export default async function setup(): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [TEST_DATABASE]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${TEST_DATABASE}`);
  } finally {
    await client.end();
  }
}
