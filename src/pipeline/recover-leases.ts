import type { Logger } from 'pino';
import { jobId } from '../queue/index.js';
import type { PipelineDeps } from './context.js';
import { endAbandoned } from './end-abandoned.js';
import { latestRun } from './finalize.js';

/** Submissions resumed per sweep (a larger number is covered by the next sweeps, oldest expiry first). */
const PER_SWEEP = 500;

export interface LeaseRecovery {
  /** Expired leases taken over by the sweep. */
  claimed: number;
  /** Of them, held by a worker that died (or could not renew): one more resume each. */
  resumed: number;
}

/**
 * The maintenance half of leases: every submission whose lease expired (its worker died, could not renew, or let
 * go and what it handed over did not happen) is taken over and resumed from its last durable state:
 * - a cancel was requested: it ends `cancelled` now (nobody would carry the cancel out), what is left of its run killed;
 * - `queued` (taken by a prepare job) or `preparing`: its prepare job is put back (at the head of the queue); prepare
 *   is idempotent, the same commit is rebuilt and pushing the same SHA again creates nothing;
 * - `published`/`running` whose latest run completed: its finalize job is put back;
 * - `published`/`running` on the local backend: its prepare job is put back, which runs it again as a new attempt
 *   (see resumePublished);
 * - `published`/`running` on GitHub: a reconcile job fetches its runs from the API; the reconciler's turn lasts
 *   RECONCILE_TURN_SECONDS (5 minutes by default), after which the sweep asks again if the run has still not ended.
 * A job that is still in the queue (waiting, delayed, or active and about to be found stalled) is left as it is. The
 * claim moves the lease's expiry on by one lease, so a submission is looked at again if the resumption does not happen.
 */
export async function resumeExpiredLeases(deps: PipelineDeps, logger: Logger): Promise<LeaseRecovery> {
  const leaseSeconds = deps.config.worker.leaseSeconds;
  const expired = await deps.repos.leases.findExpired(PER_SWEEP, leaseSeconds);
  const recovery: LeaseRecovery = { claimed: 0, resumed: 0 };
  for (const row of expired) {
    const beforePublished = row.state === 'queued' || row.state === 'preparing';
    const latest = beforePublished ? undefined : latestRun(await deps.repos.ci.runsOf(row.id));
    const runCompleted = latest?.status === 'completed';
    const viaReconciler = !beforePublished && !runCompleted && deps.backend.name !== 'local';
    // A lease a worker held and did not renew: that worker died (one more resume); one nobody held was handed over.
    const diedWith = row.leaseOwner;
    const claim = await deps.repos.leases.claimExpired(row.id, diedWith, viaReconciler ? deps.config.pipeline.reconcileTurnSeconds : leaseSeconds, diedWith !== null);
    if (claim === null) continue;
    recovery.claimed += 1;
    if (diedWith !== null) recovery.resumed += 1;
    const context = { submissionId: row.id, state: row.state, diedWith, resumeCount: claim.resumeCount };
    if (row.cancelRequested) {
      await endAbandoned(deps, row.id, 'cancelled', logger);
      continue;
    }
    if (runCompleted && latest !== undefined) {
      const [outcome] = await deps.queues.ensure('finalize', [{ payload: { submissionId: row.id }, options: { jobId: jobId('finalize', row.id, latest.githubRunId.toString(), latest.runAttempt), lifo: true } }]);
      logger.info({ ...context, outcome }, 'lease expired after the run completed: finalize ensured');
      continue;
    }
    if (viaReconciler) {
      await deps.queues.add('maintenance', { task: 'reconcile', submissionId: row.id }, { jobId: jobId('reconcile', row.id, 'lease', Date.now()) });
      continue;
    }
    const [outcome] = await deps.queues.ensure('prepare', [{ payload: { submissionId: row.id }, options: { jobId: jobId('submission', row.id), lifo: true } }]);
    logger.warn({ ...context, outcome }, 'lease expired: the submission is resumed from its last recorded state');
  }
  return recovery;
}
