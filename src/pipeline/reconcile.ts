import type { Logger } from 'pino';
import type { PipelineDeps } from './context.js';
import { finalizeSubmission, latestRun } from './finalize.js';

/**
 * Safety net for lost events: a submission still `published` after the grace period with no run recorded
 * becomes `no_run` (distinct from failure); one whose run completed but was never finalized is finalized now.
 */
export async function reconcileSubmission(deps: PipelineDeps, submissionId: string, logger: Logger): Promise<void> {
  const submission = await deps.repos.submissions.getSummary(submissionId);
  if (submission === null) return;
  if (submission.state !== 'published' && submission.state !== 'running') return;
  const run = latestRun(await deps.repos.ci.runsOf(submissionId));
  if (run === undefined) {
    const publishedAt = submission.publishedAt?.getTime() ?? 0;
    if (Date.now() - publishedAt < deps.config.pipeline.noRunGraceSeconds * 1000) return;
    await deps.repos.submissions.transition(submissionId, ['published'], 'no_run', {
      verdict: 'invalid',
      reason: 'no_run',
      errorMessage: `no workflow run started within ${deps.config.pipeline.noRunGraceSeconds} s of publishing`,
      completedAt: new Date(),
    });
    logger.warn({ submissionId }, 'no run started within the grace period');
    return;
  }
  if (run.status === 'completed') {
    await finalizeSubmission(deps, submissionId, logger);
    return;
  }
  const startedAt = (run.runStartedAt ?? run.createdAt).getTime();
  if (Date.now() - startedAt > deps.config.pipeline.runTimeoutMinutes * 60_000) {
    await deps.repos.submissions.transition(submissionId, ['published', 'running'], 'timed_out', {
      verdict: 'invalid',
      reason: 'timed_out',
      errorMessage: `the run did not complete within ${deps.config.pipeline.runTimeoutMinutes} minutes`,
      completedAt: new Date(),
    });
  }
}
