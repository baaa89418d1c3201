import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { BenchAccountRow, Repositories } from '../db/index.js';
import { isTerminal, type SubmissionState } from '../domain/states.js';
import type { Queues } from '../queue/index.js';
import { leastLoaded, type PoolAccount } from './pool.js';
import { createScheduler, type Scheduler } from './scheduler.js';
import { createSlotStore } from './store/index.js';

/**
 * The scheduler as the pipeline uses it: the pool is the BenchAccount table (empty: the single-account path,
 * BENCH_OWNER, no scheduler involved), assignments are AccountAssignment rows, and a submission that gets its slots
 * later has its `prepare` job enqueued again (`onStart`).
 */
export interface PipelinePool {
  scheduler: Scheduler;
  /** True when the table has an account that is not removed: the pipeline then admits every submission. */
  enabled(): Promise<boolean>;
  /** Releases slots of submissions that are over per Postgres or past their hold deadline (the worker's reconcile schedule). */
  reconcile(): Promise<number>;
}

export interface PipelinePoolOptions {
  repos: Repositories;
  redis: Redis;
  prefix: string;
  queues: Queues;
  logger: Logger;
  /** Longest a started submission may hold slots (RUN_TIMEOUT_MINUTES plus grace). */
  holdMs: number;
}

const toAccount = (row: BenchAccountRow): PoolAccount => ({
  owner: row.owner,
  installationId: row.installationId === null ? null : Number(row.installationId),
  concurrentJobs: row.concurrentJobs,
  restPerHour: row.restPerHour,
  writesPerMinute: row.writesPerMinute,
  runnerLabels: row.runnerLabels,
  state: row.state === 'draining' || row.state === 'removed' ? row.state : 'active',
});

export function createPipelinePool(options: PipelinePoolOptions): PipelinePool {
  const { repos } = options;
  const accounts = async (): Promise<PoolAccount[]> => (await repos.benchAccounts.list()).map(toAccount);
  const scheduler = createScheduler({
    store: createSlotStore(options.redis, options.prefix),
    accounts,
    async assign(upstream) {
      const row = await repos.benchAccounts.assign(upstream.owner, upstream.name, (rows, counts) => leastLoaded(rows.map(toAccount), counts));
      return row?.account ?? null;
    },
    async accountOf(submissionId) {
      const submission = await repos.submissions.get(submissionId);
      if (submission === null) return null;
      const instance = await repos.instances.get(submission.instanceId);
      if (instance === null) return null;
      return (await repos.benchAccounts.findAssignment(instance.repoOwner, instance.repoName))?.account ?? null;
    },
    async onStart(started) {
      // A parked submission got its slots: its prepare job runs again (a new job id: the first one has completed).
      for (const { submissionId } of started) {
        await options.queues.add('prepare', { submissionId }, { jobId: `prepare-${submissionId}-slot-${Date.now()}` });
      }
    },
    logger: options.logger,
    holdMs: options.holdMs,
  });
  return {
    scheduler,
    async enabled() {
      return (await accounts()).some((account) => account.state !== 'removed');
    },
    reconcile() {
      return scheduler.reconcile(async (ids) => {
        const over = new Set<string>();
        for (const id of ids) {
          const submission = await repos.submissions.getSummary(id);
          if (submission === null || isTerminal(submission.state as SubmissionState)) over.add(id);
        }
        return over;
      });
    },
  };
}
