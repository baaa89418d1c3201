import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, transient } from '../../../src/errors.js';
import { createQueues, createRedis, createWorkerSet, type Queues } from '../../../src/queue/index.js';
import { testRedisUrl } from '../../support/test-database.js';
import { waitFor } from '../../support/wait-for.js';

const unavailable = (): AppError => new AppError('transient', 'the database is unavailable; try again', { code: 'database_unavailable', retryAfterMs: 5000 });

describe('queue jobs during a database outage (real Redis)', () => {
  const prefix = `test-outage-${randomBytes(4).toString('hex')}`;
  const logger = pino({ level: 'silent' });
  let producer: Redis;
  let queues: Queues;
  let raw: Redis;

  beforeAll(() => {
    producer = createRedis(testRedisUrl(), 'producer');
    queues = createQueues({ connection: producer, prefix });
    raw = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    await queues.close();
    producer.disconnect();
    const keys = await raw.keys(`${prefix}:*`);
    if (keys.length > 0) await raw.del(...keys);
    raw.disconnect();
  });

  async function settled(queue: Queue, id: string) {
    return waitFor(
      async () => {
        const job = await queue.getJob(id);
        return job?.finishedOn !== undefined ? job : undefined;
      },
      { timeoutMs: 30_000 },
    );
  }

  it('waits for the database without spending attempts: 12 failed tries (more than attempts: 8) and the job still completes', async () => {
    const tries = new Map<string, number>();
    const connection = createRedis(testRedisUrl(), 'worker');
    const set = createWorkerSet({
      connection,
      prefix,
      concurrency: { finalize: 2 },
      logger,
      outage: { deadlineMs: 60_000, baseDelayMs: 20, maxDelayMs: 50, giveUp: { finalize: async () => expect.unreachable('the deadline was not reached') } },
      processors: {
        finalize: async ({ submissionId }) => {
          const count = (tries.get(submissionId) ?? 0) + 1;
          tries.set(submissionId, count);
          if (submissionId === 'outage' && count <= 12) throw unavailable();
          // An ordinary transient error still spends attempts as before.
          if (submissionId === 'network' && count <= 2) throw transient('network', 'connection reset');
        },
      },
    });
    const queue = new Queue('finalize', { connection: raw, prefix });
    try {
      await queues.add('finalize', { submissionId: 'outage' }, { jobId: 'finalize-outage' });
      await queues.add('finalize', { submissionId: 'network' }, { jobId: 'finalize-network' });
      const outage = await settled(queue, 'finalize-outage');
      expect(await outage.getState()).toBe('completed');
      expect(tries.get('outage')).toBe(13);
      // BullMQ counts the attempt that completed; the 12 outage tries counted none.
      expect(outage.attemptsMade).toBe(1);
      expect(outage.data).toMatchObject({ submissionId: 'outage', dbOutage: { tries: 12, gaveUp: false } });
      const network = await settled(queue, 'finalize-network');
      expect(await network.getState()).toBe('completed');
      expect(network.attemptsMade).toBe(3);
      expect(await queue.getFailedCount()).toBe(0);
    } finally {
      await set.close();
      connection.disconnect();
      await queue.close();
    }
  });

  it('past the deadline, gives up visibly through the queue’s hook (retried while the database stays away), never as a failed job', async () => {
    const recorded: string[] = [];
    let hookCalls = 0;
    let eventsTries = 0;
    const connection = createRedis(testRedisUrl(), 'worker');
    const set = createWorkerSet({
      connection,
      prefix,
      concurrency: { prepare: 1, events: 1 },
      logger,
      outage: {
        deadlineMs: 300,
        baseDelayMs: 20,
        maxDelayMs: 40,
        giveUp: {
          prepare: async ({ submissionId }) => {
            hookCalls += 1;
            // The database is still away for the first two tries of the give-up itself.
            if (hookCalls <= 2) throw unavailable();
            recorded.push(submissionId);
          },
        },
      },
      processors: {
        prepare: async () => {
          throw unavailable();
        },
        // No give-up hook: such a job keeps waiting past the deadline until the database is back.
        events: async () => {
          eventsTries += 1;
          if (eventsTries <= 25) throw unavailable();
        },
      },
    });
    const prepare = new Queue('prepare', { connection: raw, prefix });
    const events = new Queue('events', { connection: raw, prefix });
    try {
      const started = Date.now();
      await queues.add('prepare', { submissionId: 'stuck' }, { jobId: 'submission-stuck' });
      await queues.add('events', { source: 'delivery', deliveryId: 'guid-1' }, { jobId: 'delivery-guid-1' });
      const job = await settled(prepare, 'submission-stuck');
      expect(Date.now() - started).toBeGreaterThanOrEqual(300);
      expect(await job.getState()).toBe('completed');
      expect(recorded).toEqual(['stuck']);
      expect(hookCalls).toBe(3);
      expect(job.data).toMatchObject({ dbOutage: { gaveUp: true } });
      const delivery = await settled(events, 'delivery-guid-1');
      expect(await delivery.getState()).toBe('completed');
      expect(eventsTries).toBe(26);
      expect(await prepare.getFailedCount()).toBe(0);
      expect(await events.getFailedCount()).toBe(0);
    } finally {
      await set.close();
      connection.disconnect();
      await prepare.close();
      await events.close();
    }
  });
});
