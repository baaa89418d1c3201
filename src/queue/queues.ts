import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { transient } from '../errors.js';
import { QUEUE_NAMES, type Payload, type QueueName } from './payloads.js';

export interface EnqueueOptions {
  jobId: string;
  delayMs?: number;
  priority?: number;
  /** At the head of the queue (work resumed after its worker died goes before new work). */
  lifo?: boolean;
}

/** What {@link Queues.ensure} did for one job. */
export type EnsureOutcome = 'present' | 'added' | 'replaced';

/** Where a job is: waiting, delayed or active (`pending`), not in Redis (`missing`), or completed or failed (`finished`). */
export type JobPresence = 'pending' | 'missing' | 'finished';

export interface Queues {
  add<N extends QueueName>(name: N, payload: Payload<N>, options: EnqueueOptions): Promise<void>;
  addBulk<N extends QueueName>(name: N, jobs: { payload: Payload<N>; options: EnqueueOptions }[]): Promise<void>;
  /** Registers (or updates) a repeatable maintenance job. */
  schedule(id: string, everyMs: number, payload: Payload<'maintenance'>): Promise<void>;
  /** Registers a repeatable maintenance job only when it does not exist (Redis lost it); returns whether it did. */
  ensureSchedule(id: string, everyMs: number, payload: Payload<'maintenance'>): Promise<boolean>;
  /**
   * Makes sure each job is in the queue to be processed: one that is waiting, delayed or active stays as it is
   * (`present`); a missing one (Redis flushed or restarted empty) is added (`added`); a finished one (completed or
   * failed although its work is not done) is removed and added again (`replaced`). Job ids derive from domain ids,
   * so this is idempotent. Returns one outcome per job, in order.
   */
  ensure<N extends QueueName>(name: N, jobs: { payload: Payload<N>; options: EnqueueOptions }[]): Promise<EnsureOutcome[]>;
  /** Where each job is (one Redis round trip for all of them). */
  inspect(name: QueueName, jobIds: string[]): Promise<JobPresence[]>;
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
  /** A job is a hash at <prefix>:<queue>:<id>: no hash = missing; `finishedOn` set = completed or failed. */
  const inspect = async (name: QueueName, jobIds: string[]): Promise<JobPresence[]> => {
    if (jobIds.length === 0) return [];
    const target = queue(name);
    const pipeline = options.connection.pipeline();
    for (const id of jobIds) pipeline.hmget(target.toKey(id), 'timestamp', 'finishedOn');
    const replies = (await pipeline.exec()) ?? [];
    return jobIds.map((_, index) => {
      const [error, fields] = replies[index] ?? [null, null];
      if (error !== null && error !== undefined) throw error;
      const [timestamp = null, finishedOn = null] = (fields ?? []) as (string | null)[];
      if (timestamp === null) return 'missing';
      return finishedOn === null ? 'pending' : 'finished';
    });
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
    async ensureSchedule(id, everyMs, payload) {
      return wrap(async () => {
        const maintenance = queue('maintenance');
        if ((await maintenance.getJobScheduler(id)) !== undefined) return false;
        await maintenance.upsertJobScheduler(id, { every: everyMs }, { name: 'maintenance', data: payload });
        return true;
      });
    },
    async ensure(name, jobs) {
      if (jobs.length === 0) return [];
      return wrap(async () => {
        const target = queue(name);
        const presence = await inspect(name, jobs.map((job) => job.options.jobId));
        const toAdd: typeof jobs = [];
        const outcomes = await Promise.all(
          jobs.map(async (job, index): Promise<EnsureOutcome> => {
            if (presence[index] === 'pending') return 'present';
            toAdd.push(job);
            if (presence[index] === 'missing') return 'added';
            await target.remove(job.options.jobId);
            return 'replaced';
          }),
        );
        if (toAdd.length > 0) await target.addBulk(toAdd.map((job) => ({ name, data: job.payload, opts: toJobOptions(job.options) })));
        return outcomes;
      });
    },
    inspect: (name, jobIds) => wrap(() => inspect(name, jobIds)),
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
    ...(options.lifo === true ? { lifo: true } : {}),
  };
}
