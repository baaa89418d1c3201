import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { isAppError, isRetryable } from '../errors.js';
import { isHandBack } from './hand-back.js';
import { withOutagePolicy, type OutagePolicy } from './outage.js';
import { payloadSchemas, type Payload, type QueueName } from './payloads.js';

export type Processor<N extends QueueName> = (payload: Payload<N>, context: { jobId: string; attempt: number; logger: Logger }) => Promise<void>;

export type Processors = { [N in QueueName]?: Processor<N> };

/**
 * What a job that waited for the database past the deadline leaves behind, so the give-up is visible (e.g. its
 * submission ends `infra_error` / `database_unavailable`). Retried while the database stays away. A queue without
 * one keeps waiting: its work is recorded in Postgres and carries nothing to end (webhook deliveries).
 */
export type GiveUps = { [N in QueueName]?: (payload: Payload<N>, context: { jobId: string; logger: Logger }) => Promise<void> };

export interface WorkerOutageOptions extends OutagePolicy {
  giveUp?: GiveUps;
}

const DEFAULT_OUTAGE: WorkerOutageOptions = { deadlineMs: 60 * 60_000 };

export interface WorkerSet {
  /**
   * Stops taking jobs and waits for active ones to finish (or hand themselves back); `force` stops at once, leaving
   * active jobs to BullMQ's stalled-job check (another worker takes them once their lock expired).
   */
  close(force?: boolean): Promise<void>;
  readonly workers: Worker[];
}

const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 5 * 60_000;
/** How often a job may be found stalled before BullMQ fails it (see the worker options below). */
export const MAX_STALLED_COUNT = 10;

/** Retry delay decided by the error's type: rate-limited errors wait as told, transient ones back off exponentially. */
export function retryDelay(attemptsMade: number, error: unknown): number {
  if (isAppError(error) && error.kind === 'rate_limited' && error.retryAfterMs !== undefined) return error.retryAfterMs;
  return Math.min(BASE_DELAY_MS * 2 ** Math.max(0, attemptsMade - 1), MAX_DELAY_MS);
}

/** Builds one BullMQ worker per processor; validates payloads, and lets only retryable errors retry. */
export function createWorkerSet(options: {
  connection: Redis;
  prefix: string;
  concurrency: Partial<Record<QueueName, number>>;
  processors: Processors;
  logger: Logger;
  autorun?: boolean;
  /** Database outages: jobs wait for the database (attempts not spent) up to a deadline, then give up visibly. */
  outage?: WorkerOutageOptions;
  /**
   * How long a job's lock lasts without renewal (renewed every half of it) and how often each worker looks for jobs
   * whose worker died (their lock expired) to put them back in the queue. BullMQ's defaults: 30 s both.
   */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}): WorkerSet {
  const workers: Worker[] = [];
  const outage = options.outage ?? DEFAULT_OUTAGE;
  for (const [name, processor] of Object.entries(options.processors) as [QueueName, Processor<QueueName>][]) {
    const logger = options.logger.child({ queue: name });
    const giveUp = outage.giveUp?.[name] as ((payload: Payload<QueueName>, context: { jobId: string; logger: Logger }) => Promise<void>) | undefined;
    const worker = new Worker(
      name,
      async (job: Job, token?: string) => {
        const parsed = payloadSchemas[name].safeParse(job.data);
        if (!parsed.success) throw new UnrecoverableError(`invalid ${name} payload: ${parsed.error.message}`);
        const jobLogger = logger.child({ jobId: job.id, attempt: job.attemptsMade + 1 });
        const payload = parsed.data as Payload<QueueName>;
        const context = { jobId: job.id ?? '', logger: jobLogger };
        try {
          await withOutagePolicy(
            { job, token, policy: outage, logger: jobLogger, giveUp: giveUp === undefined ? undefined : () => giveUp(payload, context) },
            () => processor(payload, { ...context, attempt: job.attemptsMade + 1 }),
          );
        } catch (error) {
          if (error instanceof DelayedError) throw error;
          if (isHandBack(error) && token !== undefined) {
            // Back at the head of the queue, no attempt spent: another worker (or this one restarted) takes it first.
            jobLogger.info({ reason: error.reason }, 'job handed back to the queue');
            await job.moveToWait(token);
            throw new WaitingError();
          }
          if (isRetryable(error)) {
            jobLogger.warn({ err: error }, 'job failed, will retry');
            throw error;
          }
          jobLogger.error({ err: error }, 'job failed permanently');
          throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
        }
      },
      {
        connection: options.connection,
        prefix: options.prefix,
        concurrency: options.concurrency[name] ?? 1,
        autorun: options.autorun ?? true,
        settings: { backoffStrategy: (attemptsMade: number, _type?: string, error?: Error) => retryDelay(attemptsMade, error) },
        ...(options.lockDurationMs !== undefined ? { lockDuration: options.lockDurationMs } : {}),
        ...(options.stalledIntervalMs !== undefined ? { stalledInterval: options.stalledIntervalMs } : {}),
        // A job is found stalled when its worker died, or when a busy event loop let its short lock (half a lease)
        // lapse. Every processor is idempotent and a submission's takeovers are bounded by LEASE_MAX_RESUMES, so a
        // stalled job goes back to the queue up to 10 times instead of BullMQ's default once (a dead worker plus one
        // late lock renewal would otherwise fail a finalize job for good).
        maxStalledCount: MAX_STALLED_COUNT,
      },
    );
    worker.on('error', (error) => logger.error({ err: error }, 'worker error'));
    workers.push(worker);
  }
  return {
    workers,
    async close(force = false) {
      await Promise.all(workers.map((worker) => worker.close(force)));
    },
  };
}
