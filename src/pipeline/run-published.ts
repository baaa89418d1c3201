import type { Logger } from 'pino';
import type { PublishInput, PublishResult, RunAttempt } from '../backends/ci-backend.js';
import type { CiEvent } from '../domain/ci-events.js';
import { isOutage } from '../queue/index.js';
import type { PipelineDeps } from './context.js';
import { endAfterLostEvents } from './database-outage.js';
import { faultPoint } from './fault-point.js';
import { handleCiEvent } from './handle-event.js';
import type { HeldLease } from './lease-keeper.js';
import { retryDuringOutage } from './retry-outage.js';

/**
 * How long, once the prepare job let go, the submission may stay unfinished before the sweep looks at it: a local
 * run is over and only its finalize job is left (one lease); a GitHub run reports by webhook, and the reconciler
 * looks at it after the no-run grace period anyway.
 */
export function handOffAfterRun(deps: Pick<PipelineDeps, 'backend' | 'config'>): number {
  return deps.backend.name === 'local' ? deps.config.worker.leaseSeconds : deps.config.pipeline.noRunGraceSeconds;
}

export interface RunPublishedInput {
  submissionId: string;
  input: PublishInput & PublishResult;
  lease: HeldLease | null;
  /** Run this run id again as this attempt (the previous one died with its worker); absent: a new run. */
  attempt?: RunAttempt;
  logger: Logger;
}

const leaseEnded = (signal: AbortSignal): Promise<void> => new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

/**
 * After publishing: the backend's afterPublish (the local backend runs the workflow here, the GitHub backend returns
 * at once), with its events recorded through the one event handler. The run stops on cancel (polled every 2 s), on
 * RUN_TIMEOUT_MINUTES, and when the lease ends: then its later events are no longer this worker's to record (the
 * run is resumed elsewhere as a new attempt, or handed back), this job stops waiting for it, and what is left of
 * it on this host (step processes, work folders) is abandoned.
 */
export async function runPublished(deps: PipelineDeps, run: RunPublishedInput): Promise<void> {
  const { repos } = deps;
  const { submissionId, lease, logger } = run;
  const controller = new AbortController();
  const runTimeout = setTimeout(() => controller.abort(new Error('run timeout')), deps.config.pipeline.runTimeoutMinutes * 60_000);
  let completionLost = false;
  const cancelPoll = setInterval(() => {
    // While the database is away the poll just misses a beat (never an unhandled rejection).
    repos.submissions.getSummary(submissionId).then((row) => {
      if (row?.cancelRequestedAt != null) controller.abort(new Error('cancelled'));
    }, () => undefined);
  }, 2000);
  const onLeaseEnd = (): void => controller.abort(new Error(`lease ${lease?.ended() ?? 'ended'}`));
  lease?.signal.addEventListener('abort', onLeaseEnd, { once: true });
  let current: RunAttempt | undefined = run.attempt;
  let paused = false;
  // The run goes on while the database is away; its events are recorded once it is back (up to the deadline).
  const emit = async (event: CiEvent): Promise<void> => {
    current ??= { runId: event.runId, runAttempt: event.runAttempt };
    if (lease?.signal.aborted === true) return;
    await retryDuringOutage(() => handleCiEvent(deps, event, logger), { deadlineMs: deps.config.worker.dbOutageDeadlineMinutes * 60_000, logger, what: `${event.kind} ${event.status}` }).catch((error: unknown) => {
      // Lost job events are repaired by finalize (it re-reads the run's jobs); a lost run completion would leave it running.
      if (isOutage(error) && event.kind === 'workflow_run' && event.status === 'completed') completionLost = true;
      throw error;
    });
    if (!paused && event.kind === 'workflow_job' && event.status === 'in_progress') {
      paused = true;
      await faultPoint(deps.config, 'running', submissionId, logger);
    }
  };
  const running = deps.backend.afterPublish(run.input, { emit, signal: controller.signal, ...(run.attempt !== undefined ? { attempt: run.attempt } : {}) });
  try {
    await (lease === null ? running : Promise.race([running, leaseEnded(lease.signal)]));
  } finally {
    clearTimeout(runTimeout);
    clearInterval(cancelPoll);
    lease?.signal.removeEventListener('abort', onLeaseEnd);
  }
  if (lease?.signal.aborted === true) {
    // The aborted run unwinds in the background; whatever it still emits is dropped.
    running.catch((error: unknown) => logger.debug({ err: error }, 'abandoned run ended with an error'));
    logger.warn({ submissionId, lease: lease.ended(), run: current }, 'lease ended during the run: the run is abandoned here');
    if (current !== undefined) await deps.backend.abandonRun?.({ repoFullName: run.input.repoFullName, ...current }).catch((error: unknown) => logger.warn({ err: error }, 'abandoning the run failed'));
    return;
  }
  if (completionLost) await endAfterLostEvents(repos, submissionId, deps.config.worker.dbOutageDeadlineMinutes, logger);
}
