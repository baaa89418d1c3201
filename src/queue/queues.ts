import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { transient } from '../errors.js';
import { QUEUE_NAMES, type Payload, type QueueName } from './payloads.js';

export interface EnqueueOptions {
  jobId: string;
  delayMs?: number;
  priority?: number;
}

export interface Queues {
  add<N extends QueueName>(name: N, payload: Payload<N>, options: EnqueueOptions): Promise<void>;
  addBulk<N extends QueueName>(name: N, jobs: { payload: Payload<N>; options: EnqueueOptions }[]): Promise<void>;
  /** Registers (or updates) a repeatable maintenance job. */
  schedule(id: string, everyMs: number, payload: Payload<'maintenance'>): Promise<void>;
  counts(name: QueueName): Promise<Record<string, number>>;
  close(): Promise<void>;
}

const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: 'typed' },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

export function createQueues(options: { connection: Redis; prefix: string; timeoutMs?: number; onError?: (error: Error) => void }): Queues {
  const queues = new Map<QueueName, Queue>(
    QUEUE_NAMES.map((name) => {
      const queue = new Queue(name, { connection: options.connection, prefix: options.prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
      queue.on('error', (error) => options.onError?.(error));
      return [name, queue];
    }),
  );
  const queue = (name: QueueName): Queue => {
    const found = queues.get(name);
    if (found === undefined) throw new Error(`unknown queue ${name}`);
    return found;
  };
  const timeoutMs = options.timeoutMs ?? 5000;
  const wrap = async <T>(work: () => Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        work(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer from Redis within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (error) {
      throw transient('queue_unavailable', 'the job queue (Redis) is unreachable', error);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    async add(name, payload, opts) {
      await wrap(() => queue(name).add(name, payload, toJobOptions(opts)));
    },
    async addBulk(name, jobs) {
      if (jobs.length === 0) return;
      await wrap(() => queue(name).addBulk(jobs.map((job) => ({ name, data: job.payload, opts: toJobOptions(job.options) }))));
    },
    async schedule(id, everyMs, payload) {
      await wrap(() => queue('maintenance').upsertJobScheduler(id, { every: everyMs }, { name: 'maintenance', data: payload }));
    },
    counts: (name) => wrap(() => queue(name).getJobCounts()),
    async close() {
      await wrap(() => Promise.all([...queues.values()].map((q) => q.close()))).catch(() => undefined);
    },
  };
}

function toJobOptions(options: EnqueueOptions): JobsOptions {
  return {
    jobId: options.jobId,
    ...(options.delayMs !== undefined ? { delay: options.delayMs } : {}),
    ...(options.priority !== undefined ? { priority: options.priority } : {}),
  };
}
