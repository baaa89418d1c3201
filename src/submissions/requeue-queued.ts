import type { Logger } from 'pino';
import type { Repositories } from '../db/index.js';
import { jobId, type Queues } from '../queue/index.js';

const PAGE = 1000;
/** Queued rows looked at per sweep (a larger backlog is covered over the next sweeps, oldest ids first). */
const MAX_PER_SWEEP = 50_000;

export interface RequeueOptions {
  /** Rows younger than this are left alone (their enqueue may be in flight). */
  createdBefore: Date;
  /**
   * A queued row whose prepare job finished (completed or failed) without moving it, and that has not changed for
   * this long, is stuck: its job is replaced. Absent: only missing jobs are added.
   */
  stuckAfterMs?: number;
  /** Replacements before a stuck row ends infra_error (prepare_failed) instead of looping. */
  maxResumes?: number;
}

/**
 * Redis is a cache of Postgres: every queued submission must have its prepare job (`submission-<id>`) in the queue.
 * Looks at every queued row (in pages, one Redis round trip per page) and adds the jobs Redis lost (FLUSHALL, a
 * restart without persistence, or never enqueued because Redis was down at acceptance); re-adding is idempotent
 * since the job id derives from the submission id. Returns how many jobs were added or replaced.
 */
export async function requeueQueued(deps: { repos: Pick<Repositories, 'leases' | 'submissions'>; queues: Queues; logger: Logger }, options: RequeueOptions): Promise<number> {
  const { repos, queues, logger } = deps;
  let afterId: string | null = null;
  let requeued = 0;
  for (let seen = 0; seen < MAX_PER_SWEEP; seen += PAGE) {
    const rows = await repos.leases.listQueued(afterId, PAGE, options.createdBefore);
    if (rows.length === 0) break;
    afterId = rows.at(-1)?.id ?? null;
    const ids = rows.map((row) => jobId('submission', row.id));
    const presence = await queues.inspect('prepare', ids);
    const missing = rows.filter((_, index) => presence[index] === 'missing').map((row) => row.id);
    const stuckBefore = options.stuckAfterMs === undefined ? null : Date.now() - options.stuckAfterMs;
    // A row a worker took (its lease) is the lease sweep's to resume.
    const stuck = stuckBefore === null ? [] : rows.filter((row, index) => presence[index] === 'finished' && row.leaseOwner === null && row.updatedAt.getTime() < stuckBefore).map((row) => row.id);
    if (missing.length > 0) {
      await queues.addBulk('prepare', missing.map((id) => ({ payload: { submissionId: id }, options: { jobId: jobId('submission', id) } })));
      await repos.submissions.markEnqueued(missing);
      logger.info({ count: missing.length }, 'queued submissions whose prepare job Redis lost were enqueued again');
    }
    for (const id of stuck) {
      const resumes = await repos.leases.countResume(id);
      if (resumes > (options.maxResumes ?? Number.POSITIVE_INFINITY)) {
        await repos.submissions.transition(id, ['queued'], 'infra_error', {
          verdict: 'invalid',
          reason: 'prepare_failed',
          errorMessage: `its prepare job ended ${resumes} times without starting it`,
          completedAt: new Date(),
        });
        continue;
      }
      await queues.ensure('prepare', [{ payload: { submissionId: id }, options: { jobId: jobId('submission', id) } }]);
      logger.warn({ submissionId: id, resumes }, 'queued submission whose prepare job finished without starting it: job replaced');
    }
    requeued += missing.length + stuck.length;
    if (rows.length < PAGE) break;
  }
  return requeued;
}
