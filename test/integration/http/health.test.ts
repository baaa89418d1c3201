import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../../src/deps.js';
import { buildApp } from '../../../src/http/app.js';
import { createApiHarness, type ApiHarness } from '../../support/api-client.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

describe('health, readiness and the OpenAPI document', () => {
  let env: TestEnv;
  let api: ApiHarness;
  beforeAll(async () => {
    env = await createTestEnv();
    api = await createApiHarness(env);
  });
  afterAll(async () => {
    await api.app.close();
    await env.cleanup();
  });

  it('answers /healthz and /readyz without a token', async () => {
    expect((await api.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await api.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', checks: { postgres: { ok: true }, redis: { ok: true }, migrations: { ok: true } } });
  });

  it('is not ready when Redis is unreachable or migrations are pending', async () => {
    const broken = createDeps({ ...env.config, redisUrl: 'redis://127.0.0.1:1' }, { logger: env.logger, dbSchema: env.schema });
    const app = await buildApp({ ...broken });
    try {
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'not_ready', checks: { postgres: { ok: true }, redis: { ok: false } } });
      await env.deps.db.pool.query(`DELETE FROM "_prisma_migrations" WHERE migration_name = (SELECT max(migration_name) FROM "_prisma_migrations")`);
      const pending = (await api.app.inject({ url: '/readyz' })).json();
      expect(pending.checks.migrations).toMatchObject({ ok: false, detail: expect.stringContaining('pending migrations') });
    } finally {
      await app.close();
      await broken.close();
    }
  });

  it('serves the OpenAPI document and the docs UI', async () => {
    const document = (await api.app.inject({ url: '/openapi.json' })).json();
    expect(document.openapi).toMatch(/^3\./);
    for (const path of ['/v1/instances:import', '/v1/instances', '/v1/instances/{id}', '/v1/runs', '/v1/runs/{id}/submissions', '/v1/submissions', '/v1/submissions/{id}', '/v1/submissions/{id}/cancel']) {
      expect(Object.keys(document.paths), path).toContain(path);
    }
    expect(document.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    const docs = await api.app.inject({ url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
  });
});
