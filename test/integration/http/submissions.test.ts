import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeps } from '../../../src/deps.js';
import { createApiHarness, simplePatch, type ApiHarness } from '../../support/api-client.js';
import { testRedisUrl } from '../../support/test-database.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

const fixture = new URL('../../fixtures/instances/ci-repair-bench-sample.jsonl', import.meta.url);

describe('submissions', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let runId: string;
  let prepare: Queue;
  let redis: Redis;
  beforeAll(async () => {
    env = await createTestEnv();
    api = await createApiHarness(env);
    await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: await readFile(fixture, 'utf8') });
    runId = (await api.app.inject({ method: 'POST', url: '/v1/runs', headers: api.auth(api.submitter), payload: { label: 'model-x', metadata: { model: 'x' } } })).json().id;
    redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
    prepare = new Queue('prepare', { connection: redis, prefix: env.config.queuePrefix });
  });
  afterAll(async () => {
    await prepare.close();
    redis.disconnect();
    await api.app.close();
    await env.cleanup();
  });

  it('creates a submission, writes it to Postgres and enqueues it on prepare', async () => {
    const response = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(api.submitter), payload: { instanceId: '1', patch: simplePatch(), runId } });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ instanceId: '1', runId, kind: 'candidate', state: 'queued', verdict: null });
    expect(body.links.self).toBe(`http://ci-replay.test/v1/submissions/${body.id}`);
    const job = await prepare.getJob(`submission-${body.id}`);
    expect(job?.data).toEqual({ submissionId: body.id });
    const row = await env.deps.repos.submissions.getSummary(body.id);
    expect(row?.enqueuedAt).not.toBeNull();
    const fetched = await api.app.inject({ url: `/v1/submissions/${body.id}`, headers: api.auth(api.submitter) });
    expect(fetched.json().state).toBe('queued');
    const run = (await api.app.inject({ url: `/v1/runs/${runId}`, headers: api.auth(api.submitter) })).json();
    expect(run.submissions).toEqual({ total: 1, byState: { queued: 1 } });
  });

  it('50 parallel POSTs with the same Idempotency-Key create exactly one submission; a different body is 409', async () => {
    const key = `key-${Date.now()}`;
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        api.app.inject({ method: 'POST', url: '/v1/submissions', headers: { ...api.auth(api.submitter), 'idempotency-key': key }, payload: { instanceId: '2', patch: simplePatch() } }),
      ),
    );
    const ids = new Set(responses.map((response) => response.json().id));
    expect(ids.size).toBe(1);
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.statusCode === 200)).toHaveLength(49);
    const count = await env.deps.db.prisma.submission.count({ where: { idempotencyKey: { endsWith: `:${key}` } } });
    expect(count).toBe(1);
    const conflict = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: { ...api.auth(api.submitter), 'idempotency-key': key }, payload: { instanceId: '2', patch: simplePatch('src/other.py') } });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('idempotency_key_reused');
  });

  it('rejects bad patches at the door with a code and a message', async () => {
    const cases: [string, string, number][] = [
      ['', 'patch_empty', 422],
      ['hello world\n', 'patch_invalid', 422],
      [simplePatch('/etc/passwd'), 'patch_absolute_path', 422],
      [simplePatch('src/../../x.py'), 'patch_path_traversal', 422],
      [simplePatch('.git/config'), 'patch_git_dir', 422],
    ];
    for (const [patch, code, status] of cases) {
      const response = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(api.submitter), payload: { instanceId: '1', patch } });
      expect(response.statusCode, code).toBe(status);
      expect(response.json().error.code).toBe(code);
      expect(response.json().error.message.length).toBeGreaterThan(10);
    }
    const unknown = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(api.submitter), payload: { instanceId: 'nope', patch: simplePatch() } });
    expect(unknown.json().error.code).toBe('unknown_instance');
  });

  it('refuses a patch over the size limit', async () => {
    const small = await createTestEnv({ PATCH_MAX_BYTES: '1000' });
    const smallApi = await createApiHarness(small);
    await small.deps.repos.instances.upsert({ ...(await env.deps.repos.instances.get('1'))!, changedFiles: [], logs: [], subtasks: null, metadata: {} });
    const response = await smallApi.app.inject({ method: 'POST', url: '/v1/submissions', headers: smallApi.auth(smallApi.submitter), payload: { instanceId: '1', patch: simplePatch('a.py', 'x'.repeat(2000)) } });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('patch_too_large');
    await smallApi.app.close();
    await small.cleanup();
  });

  it('baseline and reference kinds: no patch, and the ground truth', async () => {
    const baseline = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(api.submitter), payload: { instanceId: '1', kind: 'baseline' } });
    expect(baseline.statusCode).toBe(201);
    const reference = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(api.operator), payload: { instanceId: '1', kind: 'reference' } });
    expect(reference.statusCode).toBe(201);
    const row = await env.deps.repos.submissions.get(reference.json().id);
    expect(row?.patch).toBe((await env.deps.repos.instances.get('1'))?.diff);
  });

  it('accepts a batch of 5,000 patches streamed into the database', async () => {
    const batchRun = (await api.app.inject({ method: 'POST', url: '/v1/runs', headers: api.auth(api.submitter), payload: { label: 'batch' } })).json().id;
    const lines = function* () {
      for (let i = 0; i < 5000; i += 1) yield `${JSON.stringify({ instanceId: String((i % 5) + 1), patch: simplePatch(`src/f${i}.py`) })}\n`;
      yield '{"instanceId": "1", "patch": "nonsense"}\n';
      yield 'not json\n';
    };
    const response = await api.app.inject({ method: 'POST', url: `/v1/runs/${batchRun}/submissions`, headers: { ...api.auth(api.submitter), 'content-type': 'application/x-ndjson' }, payload: Readable.from(lines()) });
    expect(response.statusCode).toBe(202);
    const body = response.json();
    expect(body).toMatchObject({ accepted: 5000, rejected: 2 });
    expect(body.errors.map((error: { line: number; code: string }) => [error.line, error.code])).toEqual([[5001, 'patch_invalid'], [5002, 'invalid_json']]);
    expect(await env.deps.db.prisma.submission.count({ where: { runId: batchRun } })).toBe(5000);
    expect(await prepare.getJob(`submission-${body.submissionIds[4999]}`)).toBeDefined();
    const listed = (await api.app.inject({ url: `/v1/submissions?runId=${batchRun}&state=queued&limit=10`, headers: api.auth(api.submitter) })).json();
    expect(listed.items).toHaveLength(10);
    expect(listed.nextCursor).toBe(listed.items[9].id);
  });

  it('keeps an accepted submission when Redis is down, and the recovery sweep enqueues it later', async () => {
    const broken = createDeps({ ...env.config, redisUrl: 'redis://127.0.0.1:1' }, { logger: env.logger, dbSchema: env.schema });
    try {
      const result = await broken.submissions.create({ instanceId: '3', patch: simplePatch() });
      expect(result.created).toBe(true);
      const row = await env.deps.repos.submissions.getSummary(result.submission.id);
      expect(row).toMatchObject({ state: 'queued', enqueuedAt: null });
      expect(await prepare.getJob(`submission-${result.submission.id}`)).toBeUndefined();
      const recovered = await env.deps.submissions.recover(0);
      expect(recovered).toBeGreaterThanOrEqual(1);
      expect((await prepare.getJob(`submission-${result.submission.id}`))?.data).toEqual({ submissionId: result.submission.id });
      expect((await env.deps.repos.submissions.getSummary(result.submission.id))?.enqueuedAt).not.toBeNull();
    } finally {
      await broken.close();
    }
  });

  it('cancels a queued submission and refuses to cancel twice', async () => {
    const created = (await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(api.submitter), payload: { instanceId: '5', patch: simplePatch() } })).json();
    const cancelled = await api.app.inject({ method: 'POST', url: `/v1/submissions/${created.id}/cancel`, headers: api.auth(api.submitter) });
    expect(cancelled.statusCode).toBe(202);
    expect(cancelled.json()).toMatchObject({ state: 'cancelled', verdict: 'invalid', cancelRequested: true });
    const again = await api.app.inject({ method: 'POST', url: `/v1/submissions/${created.id}/cancel`, headers: api.auth(api.submitter) });
    expect(again.statusCode).toBe(409);
  });
});
