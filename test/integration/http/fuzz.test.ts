import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, simplePatch, type ApiHarness } from '../../support/api-client.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

/** Deterministic PRNG so a failure reproduces. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ENDPOINTS: { method: 'GET' | 'POST'; url: string }[] = [
  { method: 'POST', url: '/v1/instances:import' },
  { method: 'GET', url: '/v1/instances' },
  { method: 'GET', url: '/v1/instances/1' },
  { method: 'POST', url: '/v1/runs' },
  { method: 'GET', url: '/v1/runs/00000000-0000-4000-8000-000000000000' },
  { method: 'POST', url: '/v1/runs/RUN/submissions' },
  { method: 'POST', url: '/v1/submissions' },
  { method: 'GET', url: '/v1/submissions' },
  { method: 'GET', url: '/v1/submissions/00000000-0000-4000-8000-000000000000' },
  { method: 'POST', url: '/v1/submissions/00000000-0000-4000-8000-000000000000/cancel' },
];

const TABLES = ['Instance', 'Run', 'Submission', 'WorkflowRun', 'Job', 'Step', 'JobLog', 'FailureLabel', 'TestResult', 'WebhookDelivery', 'Revalidation', 'BenchRepo'];

describe('public endpoints under malformed input', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let runId: string;

  async function snapshot(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const result = await env.deps.db.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${table}"`);
      counts[table] = Number(result.rows[0]?.n);
    }
    return counts;
  }

  beforeAll(async () => {
    env = await createTestEnv({ BODY_LIMIT_BYTES: String(2 * 1024 * 1024), PATCH_MAX_BYTES: String(256 * 1024) });
    api = await createApiHarness(env);
    runId = (await api.app.inject({ method: 'POST', url: '/v1/runs', headers: api.auth(api.operator), payload: { label: 'fuzz' } })).json().id;
  });
  afterAll(async () => {
    await api.app.close();
    await env.cleanup();
  });

  it('answers every malformed request with a documented 4xx and changes nothing', async () => {
    const before = await snapshot();
    const random = prng(42);
    const values: unknown[] = [null, true, 0, -1, 1e308, '', 'x', [], {}, [1, 2], { a: { b: [] } }, '\u0000', 'é'.repeat(50), '00000000-0000-4000-8000-000000000000'];
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
    const bodies: (() => { body: string; type: string })[] = [
      () => ({ body: '{"instanceId": ', type: 'application/json' }),
      () => ({ body: '[', type: 'application/json' }),
      () => ({ body: 'null', type: 'application/json' }),
      () => ({ body: JSON.stringify({ instanceId: pick(values), patch: pick(values), runId: pick(values), kind: pick(values), label: pick(values), metadata: pick(values) }), type: 'application/json' }),
      () => ({ body: JSON.stringify(pick(values)), type: 'application/json' }),
      () => ({ body: 'x'.repeat(3 * 1024 * 1024), type: 'application/json' }),
      () => ({ body: `{"instanceId":"1","patch":"${'a'.repeat(300 * 1024)}"}`, type: 'application/json' }),
      () => ({ body: 'garbage\n{"x":1}\n', type: 'application/x-ndjson' }),
      () => ({ body: '<xml/>', type: 'application/xml' }),
      () => ({ body: '--b\r\n\r\n', type: 'multipart/form-data; boundary=b' }),
    ];
    const tokens = [undefined, 'Bearer', 'Bearer nope', 'Basic abc', `Bearer ${api.operator}x`, `Bearer ${api.submitter}`, `Bearer ${api.operator}`];
    const seen = new Set<number>();
    for (let i = 0; i < 400; i += 1) {
      const endpoint = pick(ENDPOINTS);
      const token = pick(tokens);
      const { body, type } = pick(bodies)();
      const query = random() < 0.5 ? '' : `?${pick(['limit', 'cursor', 'state', 'label', 'repo', 'upstreamOwner', 'runId', 'kind'])}=${encodeURIComponent(String(pick(values)))}`;
      const url = endpoint.url.replace('RUN', random() < 0.5 ? runId : 'not-a-uuid') + query;
      const response = await api.app.inject({
        method: endpoint.method,
        url,
        headers: { ...(token === undefined ? {} : { authorization: token }), ...(endpoint.method === 'POST' ? { 'content-type': type } : {}) },
        ...(endpoint.method === 'POST' ? { body } : {}),
      });
      seen.add(response.statusCode);
      if (response.statusCode < 400) continue;
      expect(response.statusCode, `${endpoint.method} ${url} → ${response.body.slice(0, 200)}`).toBeLessThan(500);
      const json = response.json();
      expect(typeof json.error?.code, `${endpoint.method} ${url} ${response.statusCode} → ${response.body.slice(0, 300)}`).toBe('string');
      expect(typeof json.error.message, url).toBe('string');
    }
    expect([...seen].some((status) => status === 401)).toBe(true);
    expect([...seen].some((status) => status === 400)).toBe(true);
    // A fuzzed body may happen to be a valid run ({"label": "x"}); everything else must be untouched.
    const after = await snapshot();
    expect({ ...after, Run: 0 }).toEqual({ ...before, Run: 0 });
  });

  it('rejects a well-formed body with a wrong field type without writing anything', async () => {
    const before = await snapshot();
    const response = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(api.submitter), payload: { instanceId: 1, patch: simplePatch() } });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('body.instanceId') });
    const oversized = await api.app.inject({ method: 'POST', url: '/v1/runs', headers: api.auth(api.submitter), payload: { label: 'x'.repeat(5000) } });
    expect(oversized.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});
