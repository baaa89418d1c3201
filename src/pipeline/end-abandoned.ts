import type { Logger } from 'pino';
import type { CiBackend } from '../backends/ci-backend.js';
import type { Repositories } from '../db/index.js';
import { SUBMISSION_STATES, isTerminal } from '../domain/states.js';
import { latestRun } from './finalize.js';

const NON_TERMINAL_STATES = SUBMISSION_STATES.filter((state) => !isTerminal(state));

/**
 * Why a submission is ended without its run finishing: `cancelled` (a cancel nobody else will carry out: its worker
 * died, or it had not started) or `runner_lost` (its worker died more often than LEASE_MAX_RESUMES allows).
 */
export type AbandonReason = 'cancelled' | 'runner_lost';

/**
 * Ends a submission that nobody runs any more: the state (cancelled, or infra_error / runner_lost), its latest run
 * attempt if it is still open (completed, its open jobs too, with the same outcome), and what is left of that run
 * on this host (step processes, work folders: CiBackend.abandonRun). Returns whether the submission moved.
 */
export async function endAbandoned(
  deps: { repos: Pick<Repositories, 'submissions' | 'ci' | 'instances'>; backend: Pick<CiBackend, 'abandonRun' | 'cancelSubmission'> },
  submissionId: string,
  reason: AbandonReason,
  logger: Logger,
  message?: string,
): Promise<boolean> {
  const moved =
    reason === 'cancelled'
      ? await deps.repos.submissions.transition(submissionId, NON_TERMINAL_STATES, 'cancelled', { verdict: 'invalid', reason: 'cancelled', completedAt: new Date() })
      : await deps.repos.submissions.transition(submissionId, NON_TERMINAL_STATES, 'infra_error', {
          verdict: 'invalid',
          outcome: 'infra_error',
          reason: 'runner_lost',
          errorMessage: message ?? 'the worker running it was lost',
          completedAt: new Date(),
        });
  const run = latestRun(await deps.repos.ci.runsOf(submissionId));
  if (run !== undefined && run.status !== 'completed') {
    await deps.repos.ci.closeRun(run.id, { conclusion: 'cancelled', outcome: reason === 'cancelled' ? 'cancelled' : 'infra_error', reason });
    await deps.backend.abandonRun?.({ repoFullName: run.repoFullName, runId: run.githubRunId.toString(), runAttempt: run.runAttempt }).catch((error: unknown) => logger.warn({ err: error, submissionId }, 'abandoning the run failed'));
  }
  if (moved && reason === 'cancelled') await cancelRemote(deps, submissionId, logger);
  if (moved) logger.info({ submissionId, reason }, 'submission ended without its run finishing');
  return moved;
}

/**
 * A cancelled submission whose commit may have been pushed: its runs on the CI platform are cancelled and its check
 * run completed as cancelled (CiBackend.cancelSubmission, GitHub). Best effort: a failure is logged, the submission
 * stays cancelled.
 */
export async function cancelRemote(
  deps: { repos: Pick<Repositories, 'submissions' | 'instances'>; backend: Pick<CiBackend, 'cancelSubmission'> },
  submissionId: string,
  logger: Logger,
): Promise<void> {
  if (deps.backend.cancelSubmission === undefined) return;
  try {
    const submission = await deps.repos.submissions.getSummary(submissionId);
    if (submission?.headSha == null) return;
    const instance = await deps.repos.instances.get(submission.instanceId);
    if (instance === null) return;
    await deps.backend.cancelSubmission({ submissionId, headSha: submission.headSha, checkRunId: submission.checkRunId, upstream: { owner: instance.repoOwner, name: instance.repoName } });
  } catch (error) {
    logger.warn({ err: error, submissionId }, 'cancelling the runs on the CI platform failed');
  }
}
