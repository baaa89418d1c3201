import type { Logger } from 'pino';
import type { SubmissionRow } from '../db/index.js';
import { isAppError } from '../errors.js';
import { jobId } from '../queue/index.js';
import { buildBenchmarkCommit, publishInput } from './benchmark-commit.js';
import type { PipelineDeps } from './context.js';
import { endAbandoned } from './end-abandoned.js';
import { latestRun } from './finalize.js';
import type { HeldLease } from './lease-keeper.js';
import { handOffAfterRun, runPublished } from './run-published.js';

/**
 * A published or running submission whose prepare job runs again: its worker died (the job came back after its lock
 * expired, or the sweep put it back after its lease expired). Resumed from what Postgres holds:
 * - its latest run completed: only finalize is left, which is queued again (idempotent);
 * - GitHub backend: the run goes on there, and the reconciler fetches it; nothing to do here;
 * - local backend: the run died with its worker. Its attempt is closed (`cancelled`, outcome `infra_error`,
 *   reason `runner_lost`), what is left of it on this host is killed and removed, and the same run id runs again as
 *   attempt n+1 on the same commit (rebuilt: the same submission always yields the same SHA, so nothing new is
 *   pushed). The verdict follows the latest attempt.
 * Returns the hand-off time of the lease.
 */
export async function resumePublished(deps: PipelineDeps, submission: SubmissionRow, lease: HeldLease | null, logger: Logger): Promise<number> {
  const submissionId = submission.id;
  const latest = latestRun(await deps.repos.ci.runsOf(submissionId));
  if (latest?.status === 'completed') {
    const id = jobId('finalize', submissionId, latest.githubRunId.toString(), latest.runAttempt);
    await deps.queues.ensure('finalize', [{ payload: { submissionId }, options: { jobId: id, lifo: true } }]);
    logger.info({ submissionId }, 'resume: the run completed; finalize queued');
    return deps.config.worker.leaseSeconds;
  }
  if (deps.backend.name !== 'local') return handOffAfterRun(deps);
  const instance = await deps.repos.instances.get(submission.instanceId);
  if (instance === null || submission.branch === null || submission.headSha === null) {
    await endAbandoned(deps, submissionId, 'runner_lost', logger, 'its worker died and what it had published cannot be found');
    return 0;
  }
  let prepared: Awaited<ReturnType<typeof buildBenchmarkCommit>>;
  try {
    prepared = await buildBenchmarkCommit(deps, instance, submission);
  } catch (error) {
    if (isAppError(error) && (error.kind === 'transient' || error.kind === 'rate_limited')) throw error;
    await endAbandoned(deps, submissionId, 'runner_lost', logger, `its worker died and the commit could not be rebuilt: ${error instanceof Error ? error.message : String(error)}`);
    return 0;
  }
  if (!prepared.ok || prepared.commitSha !== submission.headSha) {
    await endAbandoned(deps, submissionId, 'runner_lost', logger, `its worker died and the rebuilt commit differs from the published ${submission.headSha}`);
    return 0;
  }
  const input = publishInput(submissionId, instance, prepared, submission.branch);
  // The branch already holds this SHA: publishing again creates nothing (and restores a lost bare repository).
  const published = await deps.backend.publish(input);
  let attempt: { runId: string; runAttempt: number } | undefined;
  if (latest !== undefined) {
    await deps.repos.ci.closeRun(latest.id, { conclusion: 'cancelled', outcome: 'infra_error', reason: 'runner_lost' });
    attempt = { runId: latest.githubRunId.toString(), runAttempt: latest.runAttempt + 1 };
    await deps.backend.abandonRun?.({ repoFullName: latest.repoFullName, runId: attempt.runId, runAttempt: latest.runAttempt });
  }
  logger.warn({ submissionId, resumeCount: submission.resumeCount, previous: latest === undefined ? null : { runId: latest.githubRunId.toString(), runAttempt: latest.runAttempt } }, 'resume: the run died with its worker; running it again as a new attempt');
  if (lease?.signal.aborted === true) return 0;
  await runPublished(deps, { submissionId, input: { ...input, ...published }, lease, ...(attempt !== undefined ? { attempt } : {}), logger });
  return handOffAfterRun(deps);
}
