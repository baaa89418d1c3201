import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, simplePatch, type ApiHarness } from '../../support/api-client.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

const fixture = new URL('../../fixtures/instances/ci-repair-bench-sample.jsonl', import.meta.url);
const GROUND_TRUTH_FIELDS = ['diff', 'changedFiles', 'logs', 'shaSuccess', 'oracleSha', 'subtasks'];

/** Ground truth (patch, fixed commit, stored logs, hidden tests) is operator-only unless the instance is public. */
describe('ground-truth visibility', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let secretDiff: string;
  let secretLog: string;

  const get = (token: string, url: string) => api.app.inject({ url, headers: api.auth(token) });
  const post = (token: string, url: string, payload: unknown) => api.app.inject({ method: 'POST', url, headers: api.auth(token), payload: payload as object });
  const patchInstance = (token: string, id: string, payload: unknown) => api.app.inject({ method: 'PATCH', url: `/v1/instances/${id}`, headers: api.auth(token), payload: payload as object });

  beforeAll(async () => {
    env = await createTestEnv();
    api = await createApiHarness(env);
    const rows = (await readFile(fixture, 'utf8')).split('\n');
    const first = JSON.parse(rows[0]!);
    // Instance 1 stays private; `open-1` is the same row imported as public.
    const body = `${rows.join('\n')}\n${JSON.stringify({ ...first, id: 'open-1', public: true })}\n`;
    const imported = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body });
    expect(imported.json()).toMatchObject({ created: 6 });
    const instance = await env.deps.repos.instances.get('1');
    secretDiff = instance!.diff;
    secretLog = (instance!.logs as { log: string }[])[0]!.log;
    expect(secretDiff.length).toBeGreaterThan(20);
    expect(secretLog.length).toBeGreaterThan(20);
  });
  afterAll(async () => {
    await api.app.close();
    await env.cleanup();
  });

  it('the instance view leaves the ground truth out for a submitter on a private instance, and says so', async () => {
    const hidden = await get(api.submitter, '/v1/instances/1');
    expect(hidden.statusCode).toBe(200);
    const view = hidden.json();
    expect(view).toMatchObject({ id: '1', public: false, groundTruth: 'hidden' });
    expect(view.workflow.length).toBeGreaterThan(0);
    for (const field of GROUND_TRUTH_FIELDS) expect(view, field).not.toHaveProperty(field);
    expect(hidden.body).not.toContain(secretDiff.slice(0, 60));
    expect(hidden.body).not.toContain(secretLog.slice(0, 60));

    const listed = (await get(api.submitter, '/v1/instances?limit=500')).json().items;
    expect(listed.find((item: { id: string }) => item.id === '1')).toMatchObject({ groundTruth: 'hidden' });
    expect(listed.find((item: { id: string }) => item.id === '1')).not.toHaveProperty('shaSuccess');
    expect(listed.find((item: { id: string }) => item.id === 'open-1')).toMatchObject({ groundTruth: 'visible', public: true });

    const operator = (await get(api.operator, '/v1/instances/1')).json();
    expect(operator).toMatchObject({ groundTruth: 'visible', diff: secretDiff });
    expect(operator.logs[0].log).toBe(secretLog);

    const open = (await get(api.submitter, '/v1/instances/open-1')).json();
    expect(open).toMatchObject({ public: true, groundTruth: 'visible', diff: secretDiff });
  });

  it("the instance's stored log segments are 404 for a submitter unless the instance is public", async () => {
    const hidden = await get(api.submitter, '/v1/instances/1/logs/segments?budget=1000');
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.code).toBe('not_found');
    expect(hidden.body).not.toContain(secretLog.slice(0, 40));
    const operator = await get(api.operator, '/v1/instances/1/logs/segments?budget=1000');
    expect(operator.statusCode).toBe(200);
    expect(operator.json().segments.length).toBeGreaterThan(0);
    const open = await get(api.submitter, '/v1/instances/open-1/logs/segments?budget=1000');
    expect(open.statusCode).toBe(200);
    expect(open.json().segments.length).toBeGreaterThan(0);
  });

  it('a submitter may not create reference or revalidation submissions on a private instance (403), single or batched', async () => {
    const before = await env.deps.db.prisma.submission.count();
    for (const kind of ['reference', 'revalidation']) {
      const response = await post(api.submitter, '/v1/submissions', { instanceId: '1', kind, ...(kind === 'revalidation' ? { patch: simplePatch() } : {}) });
      expect(response.statusCode, kind).toBe(403);
      expect(response.json().error.code).toBe('forbidden');
      expect(response.json().error.message).toContain('not public');
    }
    const run = (await post(api.submitter, '/v1/runs', { label: 'refs' })).json().id;
    const batch = await post(api.submitter, `/v1/runs/${run}/submissions`, [{ instanceId: '1', kind: 'reference' }, { instanceId: '1', patch: simplePatch() }]);
    expect(batch.statusCode).toBe(202);
    expect(batch.json()).toMatchObject({ accepted: 1, rejected: 1, errors: [{ line: 1, code: 'forbidden' }] });
    expect(await env.deps.db.prisma.submission.count()).toBe(before + 1);
    expect((await post(api.operator, '/v1/submissions', { instanceId: '1', kind: 'reference' })).statusCode).toBe(201);
  });

  it("a submitter's reference on a public instance is allowed, and no submission view carries the patch text", async () => {
    const created = await post(api.submitter, '/v1/submissions', { instanceId: 'open-1', kind: 'reference' });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    expect((await env.deps.repos.submissions.get(id))?.patch).toBe(secretDiff);
    for (const response of [created, await get(api.submitter, `/v1/submissions/${id}`), await get(api.submitter, '/v1/submissions?limit=500')]) {
      expect(response.body).not.toContain(secretDiff.slice(0, 60));
      expect(response.body).not.toMatch(/"patch"\s*:/);
    }
    expect((await get(api.submitter, `/v1/submissions/${id}/jobs`)).statusCode).toBe(200);

    // Made private again: the jobs and logs of the submitter's own reference run are operator-only too.
    expect((await patchInstance(api.operator, 'open-1', { public: false })).statusCode).toBe(200);
    for (const suffix of ['/jobs', '/logs/segments']) {
      const response = await get(api.submitter, `/v1/submissions/${id}${suffix}`);
      expect(response.statusCode, suffix).toBe(404);
      expect((await get(api.operator, `/v1/submissions/${id}${suffix}`)).statusCode, suffix).toBe(200);
    }
    expect((await get(api.submitter, `/v1/submissions/${id}`)).statusCode).toBe(200);
  });

  it('PATCH /v1/instances/{id} sets public: operators only (403 for a submitter), 404 for an unknown instance, 400 for a bad body', async () => {
    const refused = await patchInstance(api.submitter, '2', { public: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('forbidden');
    expect((await env.deps.repos.instances.get('2'))?.public).toBe(false);

    const opened = await patchInstance(api.operator, '2', { public: true });
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ id: '2', public: true, groundTruth: 'visible' });
    expect((await get(api.submitter, '/v1/instances/2')).json()).toMatchObject({ groundTruth: 'visible', diff: (await env.deps.repos.instances.get('2'))?.diff });
    expect((await get(api.submitter, '/v1/instances/2/logs/segments')).statusCode).toBe(200);
    expect((await post(api.submitter, '/v1/submissions', { instanceId: '2', kind: 'reference' })).statusCode).toBe(201);

    expect((await patchInstance(api.operator, '2', { public: false })).json()).toMatchObject({ public: false });
    expect((await get(api.submitter, '/v1/instances/2')).json()).toMatchObject({ groundTruth: 'hidden' });
    expect((await get(api.submitter, '/v1/instances/2')).json()).not.toHaveProperty('diff');

    expect((await patchInstance(api.operator, 'nope', { public: true })).statusCode).toBe(404);
    for (const body of [{}, { public: 'yes' }, { public: true, extra: 1 }]) {
      const response = await patchInstance(api.operator, '2', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
    }
  });

  it('re-importing a row without `public` keeps the flag set by PATCH; a row with it sets it', async () => {
    await patchInstance(api.operator, '3', { public: true });
    const rows = (await readFile(fixture, 'utf8')).split('\n');
    const three = JSON.parse(rows.find((line) => line.startsWith('{"id": 3,'))!);
    const changed = { ...three, language: 'Python3' };
    const again = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify(changed)}\n` });
    expect(again.json()).toMatchObject({ updated: 1 });
    expect((await env.deps.repos.instances.get('3'))?.public).toBe(true);
    const closed = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify({ ...changed, public: false })}\n` });
    expect(closed.json()).toMatchObject({ updated: 1 });
    expect((await env.deps.repos.instances.get('3'))?.public).toBe(false);
    const invalid = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify({ ...changed, public: 'yes' })}\n` });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().error.details.errors[0]).toMatchObject({ code: 'invalid_row', message: expect.stringContaining('public') });
  });
});
