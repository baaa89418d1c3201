/** Where tests find Postgres and Redis (CI and this machine: local services with trust auth). */
export const TEST_DATABASE = 'ci_replay_test';
const PG_BASE = 'postgresql://postgres@127.0.0.1:5432';

export const adminUrl = (): string => `${PG_BASE}/postgres`;
export const testDatabaseUrl = (): string => `${PG_BASE}/${TEST_DATABASE}`;
export const testRedisUrl = (): string => 'redis://127.0.0.1:6379';
