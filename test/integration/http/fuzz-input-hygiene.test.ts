import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewDelivery } from '../../../src/db/index.js';
import { createDeliveryRecorder } from '../../../src/http/delivery-recorder.js';
import { githubWebhookRoutes } from '../../../src/http/routes/github-webhooks.js';
import { createApiHarness, simplePatch, type ApiHarness } from '../../support/api-client.js';
import { rowCounts } from '../../support/row-counts.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

const HYGIENE_CODES = ['invalid_characters', 'nesting_too_deep', 'field_too_large'];
const SECRET = 'hygiene-webhook-secret';
const sign = (body: string): string => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

const instanceRow = (id: string, extra: Record<string, unknown> = {}) => ({
  id, repo_owner: 'octo', repo_name: 'demo', workflow_path: '.github/workflows/ci.yml', workflow: 'on: push\njobs: {}\n',
  sha_fail: 'a'.repeat(40), error_type: ['Test Failure'], upstream_url: '/nonexistent', ...extra,
});

/** Raw JSON text, so the escapes reach the server as a client would send them. */
const deepJson = (depth: number): string => `{"label":"deep","metadata":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;

describe('input hygiene at the door (NUL, lone surrogates, deep nesting, oversized fields)', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let runId: string;
  let submissionId: string;

  beforeAll(async () => {
    env = await createTestEnv({ PATCH_MAX_BYTES: String(64 * 1024) });
    env.deps.routes.push(githubWebhookRoutes({ webhookSecret: SECRET, queues: env.deps.queues, logger: env.logger }));
    api = await createApiHarness(env);
    const imported = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify(instanceRow('clean-1'))}\n` });
    expect(imported.json()).toMatchObject({ created: 1 });
    runId = (await api.app.inject({ method: 'POST', url: '/v1/runs', headers: api.auth(api.operator), payload: { label: 'hygiene' } })).json().id;
    submissionId = (await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(api.operator), payload: { instanceId: 'clean-1', patch: simplePatch() } })).json().id;
  });
  afterAll(async () => {
    await api?.app.close();
    await env?.cleanup();
  });

  const send = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: string, type = 'application/json') =>
    api.app.inject({ method, url, headers: { ...api.auth(api.operator), ...(body === undefined ? {} : { 'content-type': type }) }, ...(body === undefined ? {} : { body }) });

  it('refuses NUL and lone surrogates in path parameters, query parameters and JSON body fields of every route, with 400 and the error shape, writing nothing', async () => {
    const before = await rowCounts(env);
    const cases: { method: 'GET' | 'POST' | 'PATCH' | 'PUT'; url: string; body?: string }[] = [
      { method: 'GET', url: '/v1/instances/clean%001' },
      { method: 'GET', url: '/v1/instances?cursor=%00' },
      { method: 'GET', url: '/v1/instances?repo=octo&label=Test%00Failure' },
      { method: 'GET', url: '/v1/submissions?instanceId=a%00b' },
      { method: 'GET', url: `/v1/runs/${runId}/report?by=type%00` },
      { method: 'GET', url: `/v1/reports/compare?runs=${runId},%00` },
      { method: 'GET', url: '/v1/datasets/ci%00repair/policy' },
      { method: 'GET', url: '/v1/instances/clean-1/logs/segments?budget=100&x=%00' },
      { method: 'POST', url: '/v1/runs', body: '{"label":"run\\u0000label"}' },
      { method: 'POST', url: '/v1/runs', body: '{"label":"ok","metadata":{"model":"gpt\\u0000"}}' },
      { method: 'POST', url: '/v1/runs', body: '{"label":"ok","metadata":{"k\\u0000":1}}' },
      { method: 'POST', url: '/v1/runs', body: '{"label":"half \\ud800 pair"}' },
      { method: 'POST', url: '/v1/runs', body: '{"label":"ok","metadata":{"x":"\\udfff"}}' },
      { method: 'POST', url: '/v1/submissions', body: JSON.stringify({ instanceId: 'clean\u00001', patch: simplePatch() }) },
      { method: 'POST', url: '/v1/submissions', body: JSON.stringify({ instanceId: 'clean-1', patch: simplePatch('src/a.py', 'x = "\u0000"') }) },
      { method: 'POST', url: `/v1/submissions?runId=${runId}%00`, body: JSON.stringify({ instanceId: 'clean-1', patch: simplePatch() }) },
      { method: 'POST', url: '/v1/instances:import', body: JSON.stringify([instanceRow('nul-1', { workflow: 'on: push\u0000' })]) },
      { method: 'POST', url: `/v1/runs/${runId}/submissions`, body: JSON.stringify([{ instanceId: 'clean-1', patch: simplePatch() }, { instanceId: 'clean-1\u0000', patch: simplePatch() }]) },
      { method: 'PATCH', url: '/v1/instances/clean-1', body: '{"public":true,"x\\u0000":1}' },
      { method: 'PUT', url: '/v1/datasets/default/policy', body: '{"note":"\\u0000"}' },
      { method: 'POST', url: '/v1/tracks', body: '{"instanceId":"clean-1\\u0000"}' },
      { method: 'POST', url: '/v1/instances/clean-1/revalidate', body: '{"repeats":1,"why":"\\ud83d"}' },
      { method: 'POST', url: `/v1/submissions/${submissionId}/cancel?reason=%00` },
    ];
    for (const { method, url, body } of cases) {
      const response = await send(method, url, body);
      expect(response.statusCode, `${method} ${url} ${body?.slice(0, 80) ?? ''} → ${response.body.slice(0, 200)}`).toBe(400);
      const error = response.json().error;
      expect(HYGIENE_CODES, `${method} ${url}`).toContain(error.code);
      expect(error.message).toMatch(/NUL character|lone surrogate/);
      // The answer never echoes the raw character back.
      expect(response.body).not.toMatch(/\u0000|[\uD800-\uDFFF]/);
    }
    expect(await rowCounts(env)).toEqual(before);
  });

  it('refuses JSON nested 10,000 deep and oversized fields with 400, not a 500 or a crash', async () => {
    const before = await rowCounts(env);
    for (const depth of [65, 10_000, 100_000]) {
      const response = await send('POST', '/v1/runs', deepJson(depth));
      expect(response.statusCode, String(depth)).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'nesting_too_deep' });
    }
    const fine = await send('POST', '/v1/runs', deepJson(20));
    expect(fine.statusCode).toBe(201);
    const huge = await send('POST', '/v1/runs', JSON.stringify({ label: 'big', metadata: { blob: 'x'.repeat(64 * 1024 + 1) } }));
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error).toMatchObject({ code: 'field_too_large', message: expect.stringContaining('body.metadata.blob') });
    const hugeKey = await send('POST', '/v1/runs', JSON.stringify({ label: 'big', metadata: { ['k'.repeat(5000)]: 1 } }));
    expect(hugeKey.json().error.code).toBe('field_too_large');
    expect(await rowCounts(env)).toEqual({ ...before, Run: before.Run! + 1 });
  });

  it('rejects only the offending lines of JSONL batches and imports, with per-line errors', async () => {
    const good = JSON.stringify({ instanceId: 'clean-1', patch: simplePatch() });
    const batch = [good, '{"instanceId":"clean-1","patch":"diff \\u0000"}', `{"instanceId":"clean-1","x":${'['.repeat(100)}${']'.repeat(100)}}`, '{"instanceId":"\\udc00","patch":"x"}', good].join('\n');
    const response = await send('POST', `/v1/runs/${runId}/submissions`, batch, 'application/x-ndjson');
    expect(response.statusCode).toBe(202);
    const result = response.json();
    expect(result).toMatchObject({ accepted: 2, rejected: 3 });
    expect(result.errors.map((error: { line: number; code: string }) => [error.line, error.code])).toEqual([
      [2, 'invalid_characters'],
      [3, 'nesting_too_deep'],
      [4, 'invalid_characters'],
    ]);
    const rows = [instanceRow('import-ok'), instanceRow('import-nul', { workflow: 'on: push\u0000\n' }), instanceRow('import-surrogate', { workflow_name: 'CI \uD800' }), instanceRow('import-ok-2')];
    const imported = await send('POST', '/v1/instances:import', rows.map((row) => JSON.stringify(row)).join('\n'), 'application/x-ndjson');
    expect(imported.statusCode).toBe(200);
    expect(imported.json()).toMatchObject({ created: 2, failed: 2, errors: [{ line: 2, id: null, code: 'invalid_characters' }, { line: 3, code: 'invalid_characters' }] });
    expect(await env.deps.repos.instances.get('import-nul')).toBeNull();
  });

  it('webhook intake: ~200 concurrent deliveries, a few with NUL in repository.full_name and action: every one 202 and stored', async () => {
    const guids: string[] = Array.from({ length: 200 }, () => randomUUID());
    const bad = new Set(guids.filter((_, index) => index % 40 === 7));
    const responses = await Promise.all(
      guids.map((guid) => {
        const body = bad.has(guid)
          ? '{"action":"queued\\u0000","installation":{"id":1},"repository":{"full_name":"bench/evil\\u0000name\\ud800"},"workflow_job":{"id":1}}'
          : JSON.stringify({ action: 'queued', installation: { id: 1 }, repository: { full_name: 'bench/a--b' }, workflow_job: { id: 1 } });
        return api.app.inject({
          method: 'POST',
          url: '/api/github/webhooks',
          headers: { 'content-type': 'application/json', 'x-github-event': 'workflow_job', 'x-github-delivery': guid, 'x-hub-signature-256': sign(body) },
          body,
        });
      }),
    );
    expect(bad.size).toBe(5);
    expect(responses.map((response) => response.statusCode)).toEqual(Array(200).fill(202));
    const stored = await env.deps.db.pool.query<{ id: string; repoFullName: string; action: string }>(`SELECT id, "repoFullName", action FROM "WebhookDelivery" WHERE id = ANY($1)`, [guids]);
    expect(stored.rowCount).toBe(200);
    for (const row of stored.rows) {
      expect(row.repoFullName).toBe(bad.has(row.id) ? 'bench/evilname\uFFFD' : 'bench/a--b');
      expect(row.action).toBe('queued');
    }
    // The payload is kept as the signed bytes, NUL escape included.
    const raw = await env.deps.repos.deliveries.get([...bad][0]!);
    expect((raw?.payload as { repository: { full_name: string } }).repository.full_name).toBe('bench/evil\u0000name\uD800');
  });

  it('a delivery the database refuses fails alone: its neighbours in the same group insert are recorded', async () => {
    const record = createDeliveryRecorder({ insert: (deliveries) => env.deps.repos.deliveries.recordMany(deliveries), queues: env.deps.queues, logger: env.logger, maxBatch: 100 });
    const delivery = (id: string, event: string): NewDelivery => ({ id, event, action: null, hookId: null, installationId: null, repoFullName: null, payload: '{}' });
    const ids = Array.from({ length: 60 }, () => randomUUID());
    // Unsanitized text reaching the insert (a NUL in a TEXT column) makes Postgres refuse the whole statement.
    const results = await Promise.allSettled(ids.map((id, index) => record(delivery(id, index % 20 === 3 ? 'workflow\u0000job' : 'workflow_job'))));
    const refused = results.flatMap((result, index) => (result.status === 'rejected' ? [{ index, reason: result.reason as { code?: string; status?: number } }] : []));
    expect(refused.map(({ index }) => index)).toEqual([3, 23, 43]);
    for (const { reason } of refused) expect(reason).toMatchObject({ code: 'invalid_value', status: 400 });
    expect(results.filter((result) => result.status === 'fulfilled' && result.value === true)).toHaveLength(57);
    const stored = await env.deps.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE id = ANY($1)`, [ids]);
    expect(stored.rows[0]?.n).toBe(57);
  });
});
