import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Repositories } from '../db/index.js';
import { isTerminal, type SubmissionState } from '../domain/states.js';
import { invalidInput, notFound } from '../errors.js';
import type { SubmissionService } from '../submissions/service.js';
import { judgeInstance, type Outcome } from './judge.js';

export interface RevalidationDeps {
  repos: Repositories;
  submissions: SubmissionService;
  logger: Logger;
  /** Which backend replays run on (the worker's CI_BACKEND): recorded in the details, an `unreplayable` result is per backend. */
  config?: Pick<Config, 'ciBackend'>;
}

/** Starts a re-validation: `repeats` replays of the unpatched commit and of the ground truth. */
export async function startRevalidation(deps: RevalidationDeps, instanceId: string, repeats = 2): Promise<{ id: string; submissionIds: string[] }> {
  const instance = await deps.repos.instances.get(instanceId);
  if (instance === null) throw notFound('instance', instanceId);
  // Checked before the first replay is created: a refused revalidation writes nothing.
  if (instance.diff === '') throw invalidInput('no_ground_truth', `instance ${instanceId} has no ground-truth patch`, undefined, 422);
  const submissionIds: string[] = [];
  for (let round = 0; round < repeats; round += 1) {
    for (const kind of ['baseline', 'reference'] as const) {
      const { submission } = await deps.submissions.create({ instanceId, kind });
      submissionIds.push(submission.id);
    }
  }
  const row = await deps.repos.revalidations.create(instanceId, submissionIds, { repeats, ...(deps.config === undefined ? {} : { backend: deps.config.ciBackend }) });
  deps.logger.info({ instanceId, revalidationId: row.id, repeats }, 'revalidation started');
  return { id: row.id, submissionIds };
}

const backendOf = (details: unknown): string | undefined =>
  typeof details === 'object' && details !== null && 'backend' in details && typeof details.backend === 'string' ? details.backend : undefined;

/** Completes every running re-validation whose replays all finished, and records the instance's health. */
export async function settleRevalidations(deps: RevalidationDeps): Promise<number> {
  let settled = 0;
  for (const revalidation of await deps.repos.revalidations.listRunning(200)) {
    const outcomes: (Outcome & { state: string })[] = [];
    for (const id of revalidation.submissionIds) {
      const submission = await deps.repos.submissions.getSummary(id);
      if (submission === null) continue;
      outcomes.push({ kind: submission.kind === 'baseline' ? 'baseline' : 'reference', verdict: submission.verdict, outcome: submission.outcome, state: submission.state });
    }
    if (outcomes.some((outcome) => !isTerminal(outcome.state as SubmissionState) || (outcome.state === 'completed' && outcome.verdict === null))) continue;
    const { result, counts } = judgeInstance(outcomes);
    // The backend the replays ran on: recorded when the revalidation started, else the settling worker's.
    const backend = backendOf(revalidation.details) ?? deps.config?.ciBackend ?? 'unknown';
    if (!(await deps.repos.revalidations.complete(revalidation.id, result, { ...(revalidation.details as object), counts, backend }))) continue;
    if (result !== 'inconclusive') await deps.repos.instances.setHealth(revalidation.instanceId, result);
    deps.logger.info({ instanceId: revalidation.instanceId, result, counts, backend }, 'revalidation completed');
    settled += 1;
  }
  return settled;
}

/** The scheduled sweep: settle finished re-validations, then start due ones (never checked, or older than `maxAgeMs`). */
export async function revalidateDue(deps: RevalidationDeps, options: { maxAgeMs: number; limit: number; repeats: number }): Promise<number> {
  await settleRevalidations(deps);
  const due = await deps.repos.revalidations.dueInstances(new Date(Date.now() - options.maxAgeMs), options.limit);
  for (const instanceId of due) await startRevalidation(deps, instanceId, options.repeats);
  return due.length;
}
