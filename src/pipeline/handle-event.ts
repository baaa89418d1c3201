import type { Logger } from 'pino';
import type { SubmissionSummary } from '../db/index.js';
import type { CiEvent } from '../domain/ci-events.js';
import { jobId } from '../queue/index.js';
import { activePool } from './active-pool.js';
import type { PipelineDeps } from './context.js';
import { divertRerun } from './divert-rerun.js';

export type EventOutcome = 'applied' | 'stale' | 'ignored';

/** Finds the submission a CI event belongs to: same head SHA, and the same branch when the event names one. */
export async function correlate(deps: Pick<PipelineDeps, 'repos'>, event: CiEvent): Promise<SubmissionSummary | null> {
  const candidates = await deps.repos.submissions.findByHeadSha(event.headSha);
  const onBranch = event.headBranch === null ? candidates : candidates.filter((candidate) => candidate.branch === event.headBranch);
  const pool = onBranch.length > 0 ? onBranch : candidates;
  return pool.sort((a, b) => b.attempt - a.attempt)[0] ?? null;
}

/**
 * The one handler of normalized workflow_run / workflow_job events, whichever backend produced them. Runs are
 * keyed by (run id, attempt), jobs by job id; recorded statuses only move forward, so duplicates and
 * out-of-order deliveries end in the same state. Failed jobs go to the `logs` queue, completed runs to `finalize`.
 */
export async function handleCiEvent(deps: Pick<PipelineDeps, 'repos' | 'queues'> & Partial<Pick<PipelineDeps, 'pool' | 'backend'>>, event: CiEvent, logger: Logger): Promise<EventOutcome> {
  const submission = await correlate(deps, event);
  if (submission === null) {
    logger.debug({ headSha: event.headSha, repo: event.repoFullName }, 'event for no known submission');
    return 'ignored';
  }
  // Account pool: a re-run started on GitHub goes through admission as a new submission instead (divert-rerun.ts).
  if (await divertRerun(deps, submission, event, logger)) return 'ignored';
  const submissionId = submission.id;
  let applied: boolean;
  if (event.kind === 'workflow_run') {
    applied = (await deps.repos.ci.applyRunEvent(submissionId, event)).applied;
  } else {
    const { job, applied: jobApplied } = await deps.repos.ci.applyJobEvent(submissionId, event);
    applied = jobApplied;
    if (applied && event.status === 'completed' && event.conclusion === 'failure') {
      await deps.queues.add('logs', { submissionId, jobRowId: job.id }, { jobId: jobId('log', job.id) });
    }
    // Account pool: the job's slot goes back (once per job id, however often the webhook comes).
    if (event.status === 'completed') await (await activePool(deps))?.scheduler.jobCompleted(submissionId, String(event.jobId));
  }
  if (event.status === 'in_progress' || event.status === 'completed') {
    await deps.repos.submissions.transition(submissionId, ['published'], 'running', { startedAt: new Date() });
  }
  // Account pool: a completed run gives back whatever its submission still holds.
  if (event.kind === 'workflow_run' && event.status === 'completed') await (await activePool(deps))?.scheduler.finished(submissionId);
  if (applied && event.kind === 'workflow_run' && event.status === 'completed') {
    await deps.queues.add('finalize', { submissionId }, { jobId: jobId('finalize', submissionId, event.runId, event.runAttempt) });
  }
  return applied ? 'applied' : 'stale';
}
