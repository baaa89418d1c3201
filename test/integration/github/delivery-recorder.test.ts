import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewDelivery } from '../../../src/db/index.js';
import { createDeliveryRecorder } from '../../../src/http/delivery-recorder.js';
import { waitFor } from '../../support/wait-for.js';
import { waitingDeliveryIds } from '../../support/events-queue.js';
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
    const enqueued = (await waitingDeliveryIds(env.config.queuePrefix)).filter((id) => ids.includes(id));
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

  it('rejects every caller of a batch whose insert fails, and keeps serving later batches with its one slot', async () => {
    let fail = true;
    const record = createDeliveryRecorder({
      insert: (deliveries) => (fail ? Promise.reject(new Error('database unavailable')) : env.deps.repos.deliveries.recordMany(deliveries)),
      queues: env.deps.queues,
      logger: env.logger,
      maxInFlight: 1,
    });
    const outcomes = await Promise.allSettled([randomUUID(), randomUUID(), randomUUID()].map((id) => record(delivery(id))));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((await Promise.allSettled([record(delivery(randomUUID()))]))[0]?.status).toBe('rejected');
    fail = false;
    // A leaked slot would leave this waiting forever.
    expect(await record(delivery(randomUUID()))).toBe(true);
  });

  it('gives the slot back once the insert commits: a slow enqueue does not hold up the next insert', async () => {
    const inserted: number[] = [];
    const release: (() => void)[] = [];
    const record = createDeliveryRecorder({
      insert: async (deliveries) => {
        inserted.push(deliveries.length);
        return env.deps.repos.deliveries.recordMany(deliveries);
      },
      // The real queue, reached only when the test lets each enqueue through.
      queues: { addBulk: (name, jobs) => new Promise<void>((resolve) => release.push(resolve)).then(() => env.deps.queues.addBulk(name, jobs)) },
      logger: env.logger,
      maxInFlight: 1,
    });
    const first = record(delivery(randomUUID()));
    await waitFor(async () => (release.length === 1 ? true : undefined), { timeoutMs: 5000, intervalMs: 10 });
    const second = record(delivery(randomUUID()));
    // The second insert runs while the first batch is still waiting for Redis.
    await waitFor(async () => (inserted.length === 2 && release.length === 2 ? true : undefined), { timeoutMs: 5000, intervalMs: 10 });
    for (const go of release) go();
    expect(await Promise.all([first, second])).toEqual([true, true]);
  });

  it('cuts batches at a byte budget (a larger delivery goes alone) and refuses deliveries beyond maxPending as transient', async () => {
    const sizes: number[] = [];
    const record = createDeliveryRecorder({
      insert: async (deliveries) => {
        sizes.push(deliveries.length);
        return env.deps.repos.deliveries.recordMany(deliveries);
      },
      queues: env.deps.queues,
      logger: env.logger,
      maxBatchBytes: 200,
      maxInFlight: 1,
      maxPending: 6,
    });
    const big = { ...delivery(randomUUID()), payload: JSON.stringify({ action: 'queued', pad: 'x'.repeat(500) }) };
    const small = Array.from({ length: 5 }, () => delivery(randomUUID()));
    const calls = [big, ...small, delivery(randomUUID()), delivery(randomUUID())].map((item) => record(item).then(
      (created) => ({ created }),
      (error: unknown) => ({ error }),
    ));
    const results = await Promise.all(calls);
    // 8 deliveries, 6 may wait: the first batch was taken only after all 8 arrived in this event-loop turn.
    const refused = results.filter((result) => 'error' in result);
    expect(refused).toHaveLength(2);
    for (const result of refused) expect(result).toMatchObject({ error: { kind: 'transient', code: 'intake_overloaded' } });
    expect(results.filter((result) => 'created' in result && result.created)).toHaveLength(6);
    // Every small payload is ~60 bytes: 3 fit in 200; the 560-byte one went alone.
    expect(sizes[0]).toBe(1);
    expect(Math.max(...sizes.slice(1))).toBeLessThanOrEqual(3);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(6);
  });

  it('refuses nonsensical limits', () => {
    const base = { insert: async () => new Set<string>(), queues: env.deps.queues, logger: env.logger };
    for (const limits of [{ maxInFlight: 0 }, { maxBatch: 0 }, { maxBatch: Number.NaN }, { maxBatch: 1001 }, { maxPending: -1 }, { maxBatchBytes: 1.5 }]) {
      expect(() => createDeliveryRecorder({ ...base, ...limits }), JSON.stringify(limits)).toThrow(RangeError);
    }
  });

  it('refuses more deliveries than one statement can carry', async () => {
    await expect(env.deps.repos.deliveries.recordMany(Array.from({ length: 10_000 }, () => delivery(randomUUID())))).rejects.toThrow(RangeError);
  });
});
