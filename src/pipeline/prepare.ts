import type { Logger } from 'pino';
import { isTerminal, type SubmissionState } from '../domain/states.js';
import { isAppError, transient } from '../errors.js';
import { HandBack } from '../queue/index.js';
import { standardizedJobCount } from '../scheduler/index.js';
import { buildBenchmarkCommit, publishInput, upstreamOf } from './benchmark-commit.js';
import { branchName } from './branch-name.js';
import type { PipelineDeps } from './context.js';
import { cancelRemote, endAbandoned } from './end-abandoned.js';
import { faultPoint } from './fault-point.js';
import type { HeldLease } from './lease-keeper.js';
import { preflightSubmission } from './preflight.js';
import { activePool, releaseSlotsIfOver, runnerLabelsOf } from './active-pool.js';
import { resumePublished } from './resume-published.js';
import { handOffAfterRun, runPublished } from './run-published.js';

export { buildBenchmarkCommit, COMMIT_IDENTITY, publishInput, upstreamOf, type PreparedCommit, type StandardizationRecord } from './benchmark-commit.js';

/**
 * The `prepare` job: build the commit, publish it through the backend, and (local backend) run it. It works under
 * the submission's lease (PipelineDeps.leases): a submission another worker holds is left to it (or, once that lease
 * expired, to the sweep); one whose holder died is resumed from its last durable state (see resumePublished). When
 * the lease ends early the work stops: `lost`, someone else has it now; `shutdown`, the job is handed back to the queue.
 */
export async function prepareSubmission(deps: PipelineDeps, submissionId: string, logger: Logger): Promise<void> {
  const lease = deps.leases === undefined ? null : await deps.leases.acquire(submissionId);
  if (deps.leases !== undefined && lease === null) {
    // Another worker holds it: a live one goes on with it (this job was delivered again because BullMQ thought it
    // stalled); a dead one's lease expires and the sweep puts the job back at the head of the queue.
    logger.info({ submissionId }, 'prepare skipped: another worker holds the lease');
    return;
  }
  let handOffSeconds = 0;
  try {
    handOffSeconds = await prepareLeased(deps, submissionId, lease, logger);
  } catch (error) {
    // The retry (or the sweep) takes it again at once.
    await lease?.release(0).catch(() => undefined);
    throw error;
  }
  // The lease is released before anything else can fail: a held lease is renewed for as long as this worker lives.
  const ended = lease?.ended() ?? null;
  if (ended !== 'lost') await lease?.release(ended === 'shutdown' ? 0 : handOffSeconds);
  await releaseSlotsIfOver(deps, submissionId, logger);
  if (ended === 'shutdown') throw new HandBack('the worker is shutting down');
}

/** The prepare step under a held lease (or none: a step called directly, without a keeper). Returns the hand-off time of the lease. */
async function prepareLeased(deps: PipelineDeps, submissionId: string, lease: HeldLease | null, logger: Logger): Promise<number> {
  const { repos } = deps;
  const submission = lease?.submission ?? (await repos.submissions.get(submissionId));
  if (submission === null) {
    logger.warn({ submissionId }, 'submission vanished before prepare');
    return 0;
  }
  const state = submission.state as SubmissionState;
  if (isTerminal(state)) {
    logger.info({ submissionId, state }, 'prepare skipped: already final');
    await (await activePool(deps))?.scheduler.finished(submissionId);
    return 0;
  }
  if (submission.cancelRequestedAt !== null) {
    await endAbandoned(deps, submissionId, 'cancelled', logger);
    await (await activePool(deps))?.scheduler.finished(submissionId);
    return 0;
  }
  // A submission whose worker keeps dying (it kills its worker?) is not resumed forever.
  if (submission.resumeCount > deps.config.worker.maxResumes) {
    await endAbandoned(deps, submissionId, 'runner_lost', logger, `its worker died ${submission.resumeCount} times while working on it (LEASE_MAX_RESUMES=${deps.config.worker.maxResumes})`);
    return 0;
  }
  // Published or running: its worker died (or the run's completion was never finalized); resume from what is recorded.
  if (state === 'published' || state === 'running') return resumePublished(deps, submission, lease, logger);
  await faultPoint(deps.config, 'queued', submissionId, logger);
  const account = state === 'queued' ? await admit(deps, submission, logger) : undefined;
  if (account === null) return 0;
  await repos.submissions.transition(submissionId, ['queued'], 'preparing');
  await faultPoint(deps.config, 'preparing', submissionId, logger);
  const instance = await repos.instances.get(submission.instanceId);
  if (instance === null) {
    await fail(deps, submissionId, 'infra_error', `instance ${submission.instanceId} no longer exists`);
    return 0;
  }
  let prepared: Awaited<ReturnType<typeof buildBenchmarkCommit>>;
  try {
    prepared = await buildBenchmarkCommit(deps, instance, submission, { runnerLabels: await runnerLabelsOf(deps, account) });
  } catch (error) {
    if (isAppError(error) && (error.kind === 'transient' || error.kind === 'rate_limited')) throw error;
    await fail(deps, submissionId, 'infra_error', error instanceof Error ? error.message : String(error));
    return 0;
  }
  if (!prepared.ok) {
    await repos.submissions.transition(submissionId, ['preparing'], 'patch_failed', {
      verdict: 'invalid',
      reason: 'patch_failed',
      errorMessage: prepared.message,
      completedAt: new Date(),
    });
    logger.info({ submissionId }, 'patch did not apply');
    return 0;
  }
  // Before anything is pushed: what in the workflow this backend cannot run ends the submission here.
  const standardization = await preflightSubmission(deps, submissionId, instance, prepared, upstreamOf(instance).url, logger);
  if (standardization === null) return 0;
  const branch = branchName(submission);
  await repos.submissions.update(submissionId, {
    branch,
    headSha: prepared.commitSha,
    revertedFiles: prepared.revertedFiles,
    standardization,
    preparedAt: new Date(),
  });
  if (lease?.signal.aborted === true) return 0;
  const input = { ...publishInput(submissionId, instance, prepared, branch), ...(account !== undefined ? { account } : {}) };
  const publishing = await publishFenced(deps, submissionId, input, lease, logger);
  if (publishing === null) return 0;
  const published = publishing.published;
  if (!publishing.moved) {
    // The cancel came while the commit was being pushed: what the push started on the CI platform is stopped too.
    if ((await repos.submissions.getSummary(submissionId))?.state === 'cancelled') {
      logger.info({ submissionId }, 'published, but the submission was cancelled meanwhile: not run');
      await cancelRemote(deps, submissionId, logger);
      return 0;
    }
    logger.warn({ submissionId }, 'published, but the lease was taken over meanwhile: the new holder records it');
    return 0;
  }
  logger.info({ submissionId, branch, headSha: published.headSha, backend: deps.backend.name }, 'submission published');
  // Webhooks can outrun the record of `published`: a run they reported started already makes it `running` now
  // (handleCiEvent moves only `published` submissions, and would otherwise wait for the run's next event).
  const runs = await repos.ci.runsOf(submissionId);
  if (runs.some((run) => run.status === 'in_progress' || run.status === 'completed')) {
    await repos.submissions.transition(submissionId, ['published'], 'running', { startedAt: new Date() });
  }
  await deps.queues.add('maintenance', { task: 'reconcile', submissionId }, { jobId: `reconcile-${submissionId}`, delayMs: deps.config.pipeline.noRunGraceSeconds * 1000 }).catch(() => undefined);
  await runPublished(deps, { submissionId, input: { ...input, ...published }, lease, logger });
  return handOffAfterRun(deps);
}

type Published = Awaited<ReturnType<PipelineDeps['backend']['publish']>>;

/**
 * Publishes and records `published`, fenced by the lease, so a takeover never publishes twice: under the
 * submission's publish lock (a second worker whose takeover meets a publish still under way is refused, as a
 * transient error, and retried), only after the lease is re-validated, and `published` is written only while this
 * worker still holds the lease (same statement). Publishing is idempotent besides: the same submission yields the
 * same commit, the push creates the branch only if absent, and the check run is looked up before it is created.
 * Null: nothing to record (the lease is gone, or the publish failed for good and the submission is ended).
 */
async function publishFenced(deps: PipelineDeps, submissionId: string, input: ReturnType<typeof publishInput>, lease: HeldLease | null, logger: Logger): Promise<{ published: Published; moved: boolean } | null> {
  const publishAndRecord = async (): Promise<{ published: Published; moved: boolean } | null> => {
    if (lease !== null && !(await lease.confirm())) return null;
    let published: Published;
    try {
      // The same submission always yields the same commit: publishing it again (a resumed prepare) pushes nothing new.
      published = await deps.backend.publish(input);
    } catch (error) {
      if (isAppError(error) && (error.kind === 'transient' || error.kind === 'rate_limited')) throw error;
      await fail(deps, submissionId, 'publish_failed', error instanceof Error ? error.message : String(error));
      return null;
    }
    await faultPoint(deps.config, 'after-push', submissionId, logger);
    const moved = await deps.repos.submissions.transition(submissionId, ['preparing'], 'published', {
      benchRepoId: published.benchRepoId,
      headSha: published.headSha,
      publishedAt: new Date(),
      ...(published.checkRunId !== undefined ? { checkRunId: published.checkRunId } : {}),
    }, lease === null ? undefined : { leaseOwner: lease.owner });
    return { published, moved };
  };
  if (lease === null) return publishAndRecord();
  const held = await lease.exclusive(publishAndRecord);
  if (held === null) throw transient('publish_in_progress', `another worker is publishing submission ${submissionId}; trying again`);
  return held.value;
}

/**
 * With an account pool, the submission waits here until its account has room for every job its standardized workflow
 * starts (docs/account-pool.md): the scheduler's `onStart` enqueues this prepare step again when it gets its slots.
 * Undefined: no pool (the single-account path); null: parked, nothing more to do now; else the account it runs on.
 */
async function admit(deps: PipelineDeps, submission: { id: string; instanceId: string; kind: string; runId: string | null }, logger: Logger): Promise<string | null | undefined> {
  const pool = await activePool(deps);
  if (pool === null) return undefined;
  const instance = await deps.repos.instances.get(submission.instanceId);
  if (instance === null) return undefined;
  const count = await standardizedJobCount(instance, deps.config);
  const admission = await pool.scheduler.admit({ submissionId: submission.id, kind: submission.kind, runId: submission.runId, upstream: { owner: instance.repoOwner, name: instance.repoName }, jobs: count.concurrent, totalJobs: count.jobs });
  if (admission.state === 'started') return admission.account;
  if (admission.state === 'no_account') {
    // No active account to assign its upstream to: looked at again in a minute (never failed).
    await deps.queues.add('prepare', { submissionId: submission.id }, { jobId: `prepare-${submission.id}-noaccount-${Date.now()}`, delayMs: 60_000 });
  }
  logger.info({ submissionId: submission.id, admission: admission.state, jobs: count.concurrent, totalJobs: count.jobs }, 'waiting for room on its account');
  return null;
}

async function fail(deps: PipelineDeps, submissionId: string, state: 'infra_error' | 'publish_failed', message: string): Promise<void> {
  await deps.repos.submissions.transition(submissionId, ['queued', 'preparing'], state, { verdict: 'invalid', reason: state, errorMessage: message, completedAt: new Date() });
}
