import type { Logger } from 'pino';
import type { SubmissionSummary } from '../db/index.js';
import type { CiEvent } from '../domain/ci-events.js';
import { activePool } from './active-pool.js';
import type { PipelineDeps } from './context.js';
import { requestRerun } from './request-rerun.js';

/**
 * With the account pool, a workflow re-run started on GitHub (Actions "Re-run jobs": a `workflow_run` with
 * run_attempt > 1) would run outside the scheduler's count, beyond its account's limit. GitHub has already queued
 * that attempt's jobs and offers no way to hold them, so the attempt is cancelled at once and replayed as a ci-replay
 * re-run (`requestRerun`: a new submission, attempt + 1), which waits for its account's slots like any new run.
 * The diverted attempt's events never touch the original submission. Returns true when the event was diverted
 * (the caller ignores it); false without a pool (the single-account path records re-run attempts as before).
 */
export async function divertRerun(deps: Pick<PipelineDeps, 'repos' | 'queues'> & Partial<Pick<PipelineDeps, 'pool' | 'backend'>>, submission: SubmissionSummary, event: CiEvent, logger: Logger): Promise<boolean> {
  const backend = deps.backend;
  if (event.runAttempt <= 1 || backend === undefined || backend.name !== 'github' || (await activePool(deps)) === null) return false;
  if (event.kind !== 'workflow_run' || event.status === 'completed') return true;
  const instance = await deps.repos.instances.get(submission.instanceId);
  if (instance !== null && submission.headSha !== null) {
    // Cancels the commit's unfinished runs (the original's run is over); the original's check run is complete already.
    await backend.cancelSubmission?.({ submissionId: submission.id, headSha: event.headSha, checkRunId: null, upstream: { owner: instance.repoOwner, name: instance.repoName } });
  }
  await requestRerun(deps, submission.id, logger, `workflow re-run on GitHub (run ${event.runId} attempt ${event.runAttempt}, cancelled there)`);
  return true;
}
