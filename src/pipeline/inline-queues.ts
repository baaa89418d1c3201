import type { Logger } from 'pino';
import type { Queues } from '../queue/index.js';
import { archiveAndClassify } from './archive-job-log.js';
import type { PipelineDeps } from './context.js';
import { finalizeSubmission } from './finalize.js';

/**
 * A Queues stand-in that runs the pipeline's follow-up jobs (logs, finalize) at once, in process: what
 * `ci-replay run-local` uses to run one submission end to end without a worker.
 */
export function inlineQueues(getDeps: () => PipelineDeps, logger: Logger): Queues {
  const pending: Promise<void>[] = [];
  const run = async (name: string, payload: Record<string, unknown>): Promise<void> => {
    const deps = getDeps();
    if (name === 'logs') await archiveAndClassify(deps, String(payload.submissionId), String(payload.jobRowId), logger);
    if (name === 'finalize') await finalizeSubmission(deps, String(payload.submissionId), logger);
  };
  return {
    async add(name, payload) {
      const task = run(name, payload as Record<string, unknown>);
      pending.push(task);
      await task;
    },
    async addBulk(name, jobs) {
      for (const job of jobs) await run(name, job.payload as Record<string, unknown>);
    },
    async schedule() {},
    async ensureSchedule() {
      return false;
    },
    async ensure(name, jobs) {
      for (const job of jobs) await run(name, job.payload as Record<string, unknown>);
      return jobs.map(() => 'added' as const);
    },
    async inspect(_name, jobIds) {
      return jobIds.map(() => 'missing' as const);
    },
    async counts() {
      return {};
    },
    async close() {
      await Promise.allSettled(pending);
    },
  };
}
