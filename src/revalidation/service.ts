import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Repositories, SubmissionSummary } from '../db/index.js';
import { isTerminal, type InstanceLifecycle, type SubmissionState } from '../domain/states.js';
import { invalidInput, notFound } from '../errors.js';
import type { SubmissionService } from '../submissions/service.js';
import { brokenCause } from './broken-cause.js';
import { judgeInstance, type Outcome, type RecordedFailure } from './judge.js';
import { lifecycleMove } from './lifecycle.js';
import type { PreCheck } from './pre-check.js';

export interface RevalidationDeps {
  repos: Repositories;
  submissions: SubmissionService;
  logger: Logger;
  /**
   * The worker's backend (recorded in the details: an `unreplayable` result is per backend) and the re-validation
   * settings (repeats K, the budget N, the queue priority); defaults when absent: K = 3, N = 4, priority 1000.
   */
  config?: { ciBackend?: Config['ciBackend']; revalidation?: Partial<Pick<Config['revalidation'], 'repeats' | 'maxConcurrent' | 'priority'>> };
  /** Checks an instance before its re-validation's first replay (the worker passes `checkInstance`); absent: none. */
  preCheck?: PreCheck;
}

const DEFAULTS = { repeats: 3, maxConcurrent: 4, priority: 1000 };
const settings = (deps: RevalidationDeps) => ({ ...DEFAULTS, ...deps.config?.revalidation });

/** The replays of a re-validation in the order they are created: round by round, the baseline then the ground truth. */
export const replayPlan = (repeats: number): ('baseline' | 'reference')[] => Array.from({ length: repeats * 2 }, (_, index) => (index % 2 === 0 ? 'baseline' : 'reference'));

export interface StartedRevalidation {
  id: string;
  /** False when the instance already had one open: that one is returned (nothing is started twice). */
  created: boolean;
  repeats: number;
  /** The replays created so far (the scheduler creates the rest as the budget allows). */
  submissionIds: string[];
}

/**
 * Opens a re-validation of the instance: `repeats` replays of the unpatched commit and of the ground truth, created
 * by the scheduler within the budget (at most REVALIDATE_MAX_CONCURRENT unfinished at once); the first ones are
 * created at once when there is room. Idempotent: an instance with an open re-validation gets that one back.
 */
export async function startRevalidation(deps: RevalidationDeps, instanceId: string, repeats?: number, options: { trigger?: 'schedule' | 'operator' } = {}): Promise<StartedRevalidation> {
  const instance = await deps.repos.instances.get(instanceId);
  if (instance === null) throw notFound('instance', instanceId);
  // Checked before anything is written: a refused revalidation writes nothing.
  if (instance.diff === '') throw invalidInput('no_ground_truth', `instance ${instanceId} has no ground-truth patch`, undefined, 422);
  const k = repeats ?? settings(deps).repeats;
  const backend = deps.config?.ciBackend;
  const { row, created } = await deps.repos.revalidations.open(instanceId, { repeats: k, trigger: options.trigger ?? 'operator', details: { repeats: k, ...(backend === undefined ? {} : { backend }) } });
  if (created) deps.logger.info({ instanceId, revalidationId: row.id, repeats: k }, 'revalidation opened');
  // The first replays at once when there is room; while a scheduler tick holds the lock, a few short tries (no
  // connection is held while waiting), else the next tick creates them.
  for (let attempt = 0; attempt < 10; attempt += 1) {
    if ((await deps.repos.revalidations.withSchedulerLock(() => dispatchLocked(deps), { wait: false })) !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const current = (await deps.repos.revalidations.get(row.id)) ?? row;
  return { id: row.id, created, repeats: current.repeats, submissionIds: current.submissionIds };
}

/** A replay as recorded, with what the judge needs of a finished one. */
async function observe(deps: RevalidationDeps, submissionId: string): Promise<(Outcome & { submissionId: string; finished: boolean }) | null> {
  const submission = await deps.repos.submissions.getSummary(submissionId);
  if (submission === null) return null;
  const finished = isTerminal(submission.state as SubmissionState) && !(submission.state === 'completed' && submission.verdict === null);
  return {
    submissionId,
    finished,
    kind: submission.kind === 'baseline' ? 'baseline' : 'reference',
    state: submission.state,
    verdict: submission.verdict,
    outcome: submission.outcome,
    reason: submission.reason,
    errorMessage: submission.errorMessage,
    reasonDetails: submission.reasonDetails,
    labels: submission.observedLabels,
    failedJobs: finished && submission.verdict === 'failed' ? await failedJobsOf(deps, submission) : [],
  };
}

async function failedJobsOf(deps: RevalidationDeps, submission: SubmissionSummary): Promise<{ job: string; step: string | null }[]> {
  const runs = await deps.repos.ci.runsOf(submission.id);
  const last = runs.at(-1);
  if (last === undefined) return [];
  const jobs = await deps.repos.ci.jobsOfRun(last.id);
  return jobs.filter((job) => job.conclusion === 'failure').map((job) => ({ job: job.name, step: job.failedStep ?? null }));
}

/** A replay that ended for a reason repeating will not change: the instance's data is broken, or the backend refuses it. */
const stopsEarly = (outcome: Outcome & { finished: boolean }): boolean => outcome.finished && (brokenCause(outcome) !== null || outcome.reason === 'not_replayable');

/** Creates the next replays of running re-validations, oldest first, while fewer than N are unfinished. Returns how many. */
async function dispatchLocked(deps: RevalidationDeps): Promise<number> {
  const { maxConcurrent, priority } = settings(deps);
  let room = maxConcurrent - (await deps.repos.revalidations.inFlight());
  let created = 0;
  if (room <= 0) return 0;
  for (const revalidation of await deps.repos.revalidations.listRunning(500)) {
    if (room <= 0) break;
    const plan = replayPlan(revalidation.repeats);
    if (revalidation.submissionIds.length >= plan.length) continue;
    const seen = await Promise.all(revalidation.submissionIds.map((id) => observe(deps, id)));
    if (seen.some((outcome) => outcome !== null && stopsEarly(outcome))) continue;
    if (revalidation.submissionIds.length === 0 && deps.preCheck !== undefined && (await settleByCheck(deps, revalidation.id, revalidation.instanceId, revalidation.details, deps.preCheck))) continue;
    for (let index = revalidation.submissionIds.length; index < plan.length && room > 0; index += 1) {
      const kind = plan[index] ?? 'baseline';
      // The key derives from the re-validation and the slot: a scheduler that died after creating the replay but
      // before recording it gets the same submission back here, never a second one.
      const { submission, created: isNew } = await deps.submissions.create({ instanceId: revalidation.instanceId, kind }, `revalidation-${revalidation.id}-${index}`, undefined, { priority });
      await deps.repos.revalidations.addSubmission(revalidation.id, submission.id);
      if (!isTerminal(submission.state as SubmissionState)) room -= 1;
      if (isNew) created += 1;
    }
  }
  if (created > 0) deps.logger.info({ created, maxConcurrent }, 'revalidation replays dispatched');
  return created;
}

/** Creates the next replays within the budget (skips when another scheduler holds the lock). */
export async function dispatchRevalidations(deps: RevalidationDeps): Promise<number> {
  return (await deps.repos.revalidations.withSchedulerLock(() => dispatchLocked(deps), { wait: false })) ?? 0;
}

const recordedFailure = (instance: { logs: unknown; labels: string[] }): RecordedFailure => ({
  jobs: Array.isArray(instance.logs)
    ? [...new Set(instance.logs.flatMap((entry: unknown) => (typeof entry === 'object' && entry !== null && 'step_name' in entry && typeof entry.step_name === 'string' ? [entry.step_name] : [])))]
    : [],
  types: instance.labels,
});

const backendOf = (details: unknown): string | undefined =>
  typeof details === 'object' && details !== null && 'backend' in details && typeof details.backend === 'string' ? details.backend : undefined;

/**
 * Completes every running re-validation whose replays all finished (or that stopped early: broken data or a
 * preflight refusal), records the instance's verdict with its evidence, and moves its lifecycle.
 */
export async function settleRevalidations(deps: RevalidationDeps): Promise<number> {
  let settled = 0;
  for (const revalidation of await deps.repos.revalidations.listRunning(500)) {
    const outcomes = (await Promise.all(revalidation.submissionIds.map((id) => observe(deps, id)))).filter((outcome) => outcome !== null);
    const stopped = outcomes.some(stopsEarly);
    if (!stopped && revalidation.submissionIds.length < replayPlan(revalidation.repeats).length) continue;
    if (outcomes.some((outcome) => !outcome.finished)) continue;
    const instance = await deps.repos.instances.get(revalidation.instanceId);
    if (instance === null) continue;
    const judgement = judgeInstance(outcomes, recordedFailure(instance));
    // The backend the replays ran on: recorded when the revalidation started, else the settling worker's.
    const backend = backendOf(revalidation.details) ?? deps.config?.ciBackend ?? 'unknown';
    const flakyShare = judgement.flakiness.length === 0 ? null : Math.max(...judgement.flakiness.map((entry) => entry.share));
    const details = {
      ...(revalidation.details as object),
      backend,
      counts: judgement.counts,
      evidence: judgement.evidence,
      flakiness: judgement.flakiness,
      flakyShare,
      ...(stopped ? { stoppedEarly: true } : {}),
      replays: outcomes.map((outcome) => ({ submissionId: outcome.submissionId, kind: outcome.kind, state: outcome.state, verdict: outcome.verdict, outcome: outcome.outcome ?? null, reason: outcome.reason ?? null })),
    };
    // The instance's verdict and lifecycle are written before the re-validation is marked completed: whoever sees it
    // completed sees them too, and a worker that dies in between leaves it running, so the next tick settles it again
    // (both writes are idempotent: the same verdict, a lifecycle move conditional on the state it leaves).
    // An inconclusive re-validation changes no verdict but counts as a check (the schedule moves on to others).
    await deps.repos.instanceHealth.setVerdict(revalidation.instanceId, judgement.result === 'inconclusive' ? instance.health : judgement.result);
    await applyLifecycle(deps, revalidation.instanceId, judgement.result, revalidation.id);
    if (!(await deps.repos.revalidations.complete(revalidation.id, judgement.result, details))) continue;
    deps.logger.info({ instanceId: revalidation.instanceId, result: judgement.result, counts: judgement.counts, backend }, 'revalidation completed');
    settled += 1;
  }
  return settled;
}

/** Settles a re-validation from the instance check alone when it proves the instance broken or unreplayable. */
async function settleByCheck(deps: RevalidationDeps, id: string, instanceId: string, previous: unknown, preCheck: PreCheck): Promise<boolean> {
  const found = await preCheck(instanceId);
  if (found === null) return false;
  const counts = { baselineFailed: 0, baselinePassed: 0, referencePassed: 0, referenceFailed: 0, infra: 0, invalid: 0 };
  const details = { ...(previous as object), counts, evidence: found.evidence, flakiness: [], flakyShare: null, stoppedEarly: true, instanceCheck: true, replays: [] };
  // Verdict and lifecycle first, as in settleRevalidations.
  await deps.repos.instanceHealth.setVerdict(instanceId, found.result);
  await applyLifecycle(deps, instanceId, found.result, id);
  if (!(await deps.repos.revalidations.complete(id, found.result, details))) return true;
  deps.logger.info({ instanceId, result: found.result }, 'revalidation settled by the instance check: no replay needed');
  return true;
}

async function applyLifecycle(deps: RevalidationDeps, instanceId: string, result: Parameters<typeof lifecycleMove>[1], revalidationId: string): Promise<void> {
  const state = await deps.repos.instanceHealth.get(instanceId);
  if (state === null) return;
  const current = state.lifecycle as InstanceLifecycle;
  const last = await deps.repos.instanceHealth.lastTransition(instanceId);
  // This re-validation moved it already (its settling worker died before marking it completed): nothing more.
  if (last !== null && last.revalidationId === revalidationId) return;
  const manualQuarantine = current === 'quarantined' && last !== null && last.actor !== 'revalidation';
  const move = lifecycleMove(current, result, { manualQuarantine });
  if (move === null) return;
  const moved = await deps.repos.instanceHealth.move({ instanceId, from: current, to: move.to, reason: move.reason, actor: 'revalidation', revalidationId });
  if (moved) deps.logger.info({ instanceId, from: current, to: move.to, reason: move.reason }, 'instance lifecycle moved');
}

/**
 * One tick of the re-validation scheduler: settle finished re-validations, open due ones (never checked, or older
 * than `maxAgeMs`; at most `limit` per tick; none when `maxAgeMs` is null), then create replays within the budget.
 * Holds the scheduler lock: a second scheduler (another worker) skips the tick. Returns how many were opened.
 */
export async function revalidationTick(deps: RevalidationDeps, options: { maxAgeMs: number | null; limit: number; repeats?: number }): Promise<number> {
  const opened = await deps.repos.revalidations.withSchedulerLock(async () => {
    await settleRevalidations(deps);
    let count = 0;
    if (options.maxAgeMs !== null) {
      const due = await deps.repos.revalidations.dueInstances(new Date(Date.now() - options.maxAgeMs), options.limit);
      const repeats = options.repeats ?? settings(deps).repeats;
      for (const instanceId of due) {
        const { created } = await deps.repos.revalidations.open(instanceId, { repeats, trigger: 'schedule', details: { repeats, ...(deps.config?.ciBackend === undefined ? {} : { backend: deps.config.ciBackend }) } });
        if (created) count += 1;
      }
    }
    await dispatchLocked(deps);
    return count;
  }, { wait: false });
  return opened ?? 0;
}

/** The scheduled sweep (kept for callers of the former API): a tick that opens due re-validations. */
export function revalidateDue(deps: RevalidationDeps, options: { maxAgeMs: number; limit: number; repeats: number }): Promise<number> {
  return revalidationTick(deps, options);
}
