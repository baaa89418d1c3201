import { randomBytes } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permanent, transient } from '../../../src/errors.js';
import { createQueues, createRedis, createWorkerSet, type Queues } from '../../../src/queue/index.js';
import { testRedisUrl } from '../../support/test-database.js';
import { waitFor } from '../../support/wait-for.js';

describe('queues and workers (real Redis)', () => {
  const prefix = `test-q-${randomBytes(4).toString('hex')}`;
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

  it('retries transient errors, fails permanent ones at once, and rejects invalid payloads', async () => {
    const attempts = new Map<string, number>();
    const connection = createRedis(testRedisUrl(), 'worker');
    const set = createWorkerSet({
      connection,
      prefix,
      concurrency: { finalize: 2 },
      logger,
      processors: {
        finalize: async ({ submissionId }) => {
          attempts.set(submissionId, (attempts.get(submissionId) ?? 0) + 1);
          if (submissionId === 'flaky' && attempts.get(submissionId)! < 3) throw transient('network', 'connection reset');
          if (submissionId === 'broken') throw permanent('nope', 'will never work');
        },
      },
    });
    const queue = new Queue('finalize', { connection: raw, prefix });
    try {
      await queues.add('finalize', { submissionId: 'flaky' }, { jobId: 'finalize-flaky' });
      await queues.add('finalize', { submissionId: 'broken' }, { jobId: 'finalize-broken' });
      await queue.add('finalize', { wrong: true }, { jobId: 'finalize-invalid', attempts: 5 });
      // Same job id twice: BullMQ keeps one job (idempotent enqueue).
      await queues.add('finalize', { submissionId: 'flaky' }, { jobId: 'finalize-flaky' });
      await waitFor(async () => ((await queue.getJob('finalize-flaky'))?.finishedOn !== undefined ? true : undefined), { timeoutMs: 20_000 });
      const flaky = await queue.getJob('finalize-flaky');
      expect(await flaky?.getState()).toBe('completed');
      expect(attempts.get('flaky')).toBe(3);
      const broken = await waitFor(async () => {
        const job = await queue.getJob('finalize-broken');
        return job?.finishedOn !== undefined ? job : undefined;
      });
      expect(await broken.getState()).toBe('failed');
      expect(broken.attemptsMade).toBe(1);
      expect(attempts.get('broken')).toBe(1);
      const invalid = await waitFor(async () => {
        const job = await queue.getJob('finalize-invalid');
        return job?.finishedOn !== undefined ? job : undefined;
      });
      expect(await invalid.getState()).toBe('failed');
      expect(invalid.failedReason).toContain('invalid finalize payload');
      expect(invalid.attemptsMade).toBe(1);
    } finally {
      await set.close();
      connection.disconnect();
      await queue.close();
    }
  });

  it('close() lets the active job finish before returning', async () => {
    let finished = false;
    let started = false;
    const connection = createRedis(testRedisUrl(), 'worker');
    const set = createWorkerSet({
      connection,
      prefix,
      concurrency: { logs: 1 },
      logger,
      processors: {
        logs: async () => {
          started = true;
          await new Promise((resolve) => setTimeout(resolve, 1500));
          finished = true;
        },
      },
    });
    const events = new QueueEvents('logs', { connection: new Redis(testRedisUrl(), { maxRetriesPerRequest: null }), prefix });
    try {
      await queues.add('logs', { submissionId: 's', jobRowId: 'j' }, { jobId: 'log-j' });
      await waitFor(async () => (started ? true : undefined), { timeoutMs: 10_000 });
      await set.close();
      expect(finished).toBe(true);
    } finally {
      connection.disconnect();
      await events.close();
    }
  });
});
