import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewDelivery } from '../../../src/db/index.js';
import { createDeliveryRecorder } from '../../../src/http/delivery-recorder.js';
import { testRedisUrl } from '../../support/test-database.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

const delivery = (id: string): NewDelivery => ({ id, event: 'workflow_job', action: 'queued', hookId: 1n, installationId: 2n, repoFullName: 'bench/a--b', payload: `{"action":"queued","n":"${id}"}` });

describe('delivery recorder (group commit for the webhook intake)', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  const enqueuedIds = async (): Promise<string[]> => {
    const queue = new Queue('events', { connection: new Redis(testRedisUrl(), { maxRetriesPerRequest: null }), prefix: env.config.queuePrefix });
    try {
      const jobs = await queue.getWaiting(0, 10_000);
      return jobs.flatMap((job) => (job.data.source === 'deliveries' ? (job.data.deliveryIds as string[]) : [job.data.deliveryId as string]));
    } finally {
      await queue.close();
    }
  };

  it('writes concurrent deliveries in few statements, at most maxInFlight at a time, and enqueues each once', async () => {
    const statements: number[] = [];
    let inFlight = 0;
    let maxSeen = 0;
    const record = createDeliveryRecorder({
      insert: async (deliveries) => {
        statements.push(deliveries.length);
        inFlight += 1;
        maxSeen = Math.max(maxSeen, inFlight);
        try {
          return await env.deps.repos.deliveries.recordMany(deliveries);
        } finally {
          inFlight -= 1;
        }
      },
      queues: env.deps.queues,
      logger: env.logger,
      maxBatch: 50,
      maxInFlight: 2,
    });
    const ids: string[] = Array.from({ length: 300 }, () => randomUUID());
    // Arrivals spread over several event-loop turns, as requests do.
    const results = await Promise.all(ids.map(async (id, index) => {
      if (index % 30 === 0) await new Promise((resolve) => setImmediate(resolve));
      return record(delivery(id));
    }));
    expect(results).toEqual(Array(300).fill(true));
    expect(statements.reduce((sum, size) => sum + size, 0)).toBe(300);
    expect(statements.length).toBeLessThan(300 / 5);
    expect(Math.max(...statements)).toBeLessThanOrEqual(50);
    expect(maxSeen).toBeLessThanOrEqual(2);
    const enqueued = (await enqueuedIds()).filter((id) => ids.includes(id));
    expect(enqueued.sort()).toEqual([...ids].sort());
    const rows = await env.deps.db.pool.query(`SELECT count(*)::int AS n FROM ${env.schema}."WebhookDelivery" WHERE id = ANY($1)`, [ids]);
    expect(rows.rows[0].n).toBe(300);
  });

  it('answers false for a GUID already recorded, in a later batch or in the same one', async () => {
    const record = createDeliveryRecorder({ insert: (deliveries) => env.deps.repos.deliveries.recordMany(deliveries), queues: env.deps.queues, logger: env.logger });
    const id = randomUUID();
    expect(await record(delivery(id))).toBe(true);
    expect(await record(delivery(id))).toBe(false);
    const twin = randomUUID();
    expect((await Promise.all([record(delivery(twin)), record(delivery(twin))]).then((answers) => answers.sort()))).toEqual([false, true]);
  });

  it('rejects every caller of a batch whose insert fails, and keeps serving later batches', async () => {
    let fail = true;
    const record = createDeliveryRecorder({
      insert: (deliveries) => (fail ? Promise.reject(new Error('database unavailable')) : env.deps.repos.deliveries.recordMany(deliveries)),
      queues: env.deps.queues,
      logger: env.logger,
    });
    const outcomes = await Promise.allSettled([randomUUID(), randomUUID(), randomUUID()].map((id) => record(delivery(id))));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    fail = false;
    expect(await record(delivery(randomUUID()))).toBe(true);
  });

  it('refuses more deliveries than one statement can carry', async () => {
    await expect(env.deps.repos.deliveries.recordMany(Array.from({ length: 10_000 }, () => delivery(randomUUID())))).rejects.toThrow(RangeError);
  });
});
