import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/http/app.js';
import { githubWebhookRoutes } from '../../../src/http/routes/github-webhooks.js';
import { createDeliveryProcessor } from '../../../src/pipeline/deliveries.js';
import { createDb, createRepositories } from '../../../src/db/index.js';
import { createQueues, createRedis } from '../../../src/queue/index.js';
import { pipelineDeps } from '../../../src/workers.js';
import { waitingDeliveryIds } from '../../support/events-queue.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

const SECRET = 'test-webhook-secret';
const sign = (body: string, secret = SECRET): string => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('POST /api/github/webhooks', () => {
  let env: TestEnv;
  let app: FastifyInstance;
  let deadApp: FastifyInstance;
  const deadRedis = createRedis('redis://127.0.0.1:1', 'producer');
  const deadQueues = createQueues({ connection: deadRedis, prefix: 'dead', timeoutMs: 500 });

  beforeAll(async () => {
    env = await createTestEnv();
    const base = { config: env.deps.config, logger: env.logger, repos: env.deps.repos, submissions: env.deps.submissions, readiness: env.deps.readiness };
    app = await buildApp({ ...base, extraRoutes: [githubWebhookRoutes({ webhookSecret: SECRET, queues: env.deps.queues, logger: env.logger })] });
    deadApp = await buildApp({ ...base, extraRoutes: [githubWebhookRoutes({ webhookSecret: SECRET, queues: deadQueues, logger: env.logger })] });
  });
  afterAll(async () => {
    await app?.close();
    await deadApp?.close();
    await deadQueues.close();
    deadRedis.disconnect();
    await env?.cleanup();
  });

  const deliver = (target: FastifyInstance, body: string, headers: Record<string, string> = {}) => {
    const guid = headers['x-github-delivery'] ?? randomUUID();
    return target.inject({
      method: 'POST',
      url: '/api/github/webhooks',
      headers: { 'content-type': 'application/json', 'x-github-event': 'workflow_job', 'x-github-delivery': guid, 'x-github-hook-id': '42', 'x-hub-signature-256': sign(body), ...headers },
      body,
    });
  };
  const waiting = async () => (await env.deps.queues.counts('events')).waiting ?? 0;

  it('verifies the signature over the raw bytes, records the delivery and enqueues it (202)', async () => {
    // Odd spacing and key order: re-serializing the parsed JSON would break the signature.
    const body = '{ "action" :"queued",\n  "installation": {"id": 7}, "repository": {"full_name": "bench/x--y"},   "workflow_job": {"id": 1}  }';
    const guid = randomUUID();
    const before = await waiting();
    const response = await deliver(app, body, { 'x-github-delivery': guid });
    expect(response.statusCode).toBe(202);
    const stored = await env.deps.repos.deliveries.get(guid);
    expect(stored).toMatchObject({ id: guid, event: 'workflow_job', action: 'queued', repoFullName: 'bench/x--y', status: 'received' });
    expect(stored?.installationId).toBe(7n);
    expect(stored?.hookId).toBe(42n);
    expect(stored?.payload).toEqual({ action: 'queued', installation: { id: 7 }, repository: { full_name: 'bench/x--y' }, workflow_job: { id: 1 } });
    // The signed bytes are kept verbatim, not a re-serialization.
    const raw = await env.deps.db.pool.query(`SELECT payload FROM ${env.schema}."WebhookDelivery" WHERE id = $1`, [guid]);
    expect((raw.rows[0].payload as Buffer).toString('utf8')).toBe(body);
    expect(await waiting()).toBe(before + 1);
  });

  it('stores a large payload (beyond a page once compressed) intact', async () => {
    const logs = Array.from({ length: 40_000 }, (_, index) => `step ${index} ${randomUUID()}`);
    const body = JSON.stringify({ action: 'completed', workflow_job: { id: 2, steps: logs } });
    expect(body.length).toBeGreaterThan(1_500_000);
    const guid = randomUUID();
    expect((await deliver(app, body, { 'x-github-delivery': guid })).statusCode).toBe(202);
    const stored = await env.deps.repos.deliveries.get(guid);
    expect((stored?.payload as { workflow_job: { steps: string[] } }).workflow_job.steps).toEqual(logs);
  });

  it('stores ids GitHub could not have sent (beyond BIGINT, fractional) as null instead of failing the batch', async () => {
    const guid = randomUUID();
    const body = '{"action":"queued","installation":{"id":1.5}}';
    const response = await deliver(app, body, { 'x-github-delivery': guid, 'x-github-hook-id': '99999999999999999999' });
    expect(response.statusCode).toBe(202);
    expect(await env.deps.repos.deliveries.get(guid)).toMatchObject({ hookId: null, installationId: null, action: 'queued' });
  });

  it('refuses a body that is not a JSON object with 400 and stores nothing', async () => {
    for (const body of ['[1, 2]', '"text"', 'null', '42', '{"action": ']) {
      const guid = randomUUID();
      const response = await deliver(app, body, { 'x-github-delivery': guid });
      expect(response.statusCode, body).toBe(400);
      expect(response.json().error.code).toBe('invalid_json');
      expect(await env.deps.repos.deliveries.get(guid)).toBeNull();
    }
  });

  it('refuses a wrong or missing signature with 401 and stores nothing', async () => {
    const body = '{"action":"queued"}';
    for (const signature of [sign(body, 'another-secret'), sign(`${body} `), 'sha256=00', undefined]) {
      const guid = randomUUID();
      const headers: Record<string, string> = { 'x-github-delivery': guid };
      const response = await app.inject({
        method: 'POST',
        url: '/api/github/webhooks',
        headers: { 'content-type': 'application/json', 'x-github-event': 'workflow_job', ...headers, ...(signature === undefined ? {} : { 'x-hub-signature-256': signature }) },
        body,
      });
      expect(response.statusCode, String(signature)).toBe(401);
      expect(await env.deps.repos.deliveries.get(guid)).toBeNull();
    }
  });

  it('stores a redelivered GUID once and enqueues it once', async () => {
    const body = '{"action":"completed"}';
    const guid = randomUUID();
    const before = await waiting();
    const first = await deliver(app, body, { 'x-github-delivery': guid });
    const second = await deliver(app, body, { 'x-github-delivery': guid });
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);
    expect(second.json()).toMatchObject({ duplicate: true });
    expect(await waiting()).toBe(before + 1);
    const rows = await env.deps.db.pool.query(`SELECT count(*)::int AS n FROM ${env.schema}."WebhookDelivery" WHERE id = $1`, [guid]);
    expect(rows.rows[0].n).toBe(1);
  });

  it('coalesces concurrent deliveries: the same GUID twice in one batch is stored and enqueued once', async () => {
    const guid = randomUUID();
    const others = Array.from({ length: 20 }, () => randomUUID());
    const before = await waiting();
    const responses = await Promise.all([guid, guid, ...others].map((id) => deliver(app, '{"action":"waiting"}', { 'x-github-delivery': id })));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(22).fill(202));
    expect(responses.slice(0, 2).map((response) => response.json().duplicate).sort()).toEqual([false, true]);
    expect(await waiting()).toBeGreaterThan(before);
    // Deliveries of one batch share one events job; every recorded GUID is enqueued exactly once.
    const wanted = new Set<string>([guid, ...others]);
    const enqueued = (await waitingDeliveryIds(env.config.queuePrefix)).filter((id) => wanted.has(id));
    expect(enqueued.sort()).toEqual([guid, ...others].sort());
    for (const id of [guid, ...others]) expect((await env.deps.repos.deliveries.get(id))?.status).toBe('received');
  });

  it('acknowledges unknown events; the worker marks them ignored', async () => {
    const guid = randomUUID();
    const response = await deliver(app, '{"zen":"Keep it logically awesome."}', { 'x-github-event': 'ping', 'x-github-delivery': guid });
    expect(response.statusCode).toBe(202);
    await createDeliveryProcessor().process(guid, await pipelineDeps(env.deps), env.logger);
    expect((await env.deps.repos.deliveries.get(guid))?.status).toBe('ignored');
  });

  it('with Postgres unreachable answers 503 database_unavailable, so GitHub marks the delivery failed (redelivered later)', async () => {
    const deadDb = createDb({ url: 'postgres://postgres@127.0.0.1:1/ci_replay_test' });
    const noDb = await buildApp({
      config: env.deps.config,
      logger: env.logger,
      repos: createRepositories(deadDb),
      submissions: env.deps.submissions,
      readiness: env.deps.readiness,
      extraRoutes: [githubWebhookRoutes({ webhookSecret: SECRET, queues: env.deps.queues, logger: env.logger })],
    });
    try {
      const response = await deliver(noDb, '{"action":"queued"}');
      expect(response.statusCode).toBe(503);
      expect(response.json().error.code).toBe('database_unavailable');
    } finally {
      await noDb.close();
      await deadDb.close();
    }
  });

  it('with Redis down the delivery is still recorded and answered 202; the recovery sweep enqueues it', async () => {
    const guid = randomUUID();
    const response = await deliver(deadApp, '{"action":"in_progress"}', { 'x-github-delivery': guid });
    expect(response.statusCode).toBe(202);
    expect((await env.deps.repos.deliveries.get(guid))?.status).toBe('received');
    await env.deps.db.pool.query(`UPDATE ${env.schema}."WebhookDelivery" SET "receivedAt" = now() - interval '1 minute' WHERE id = $1`, [guid]);
    const before = await waiting();
    expect(await createDeliveryProcessor().sweep(await pipelineDeps(env.deps), env.logger)).toBeGreaterThanOrEqual(1);
    expect(await waiting()).toBeGreaterThan(before);
  });
});
