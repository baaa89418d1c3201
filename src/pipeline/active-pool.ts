import type { Logger } from 'pino';
import { isTerminal, type SubmissionState } from '../domain/states.js';
import type { PipelinePool } from '../scheduler/index.js';
import type { PipelineDeps } from './context.js';

/** The account pool when it has accounts (docs/account-pool.md); null on the single-account path, which touches no slots. */
export async function activePool(deps: Pick<PipelineDeps, 'pool'>): Promise<PipelinePool | null> {
  if (deps.pool === undefined || !(await deps.pool.enabled())) return null;
  return deps.pool;
}

/**
 * A submission the prepare step ended (patch failed, preflight, publish failed…) gives its slots back at once. Best
 * effort: with Redis away the slots stay taken until the pool's reconcile schedule gives them back, and the prepare
 * job still ends normally (its lease released), so nothing waits on the slot store.
 */
export async function releaseSlotsIfOver(deps: Pick<PipelineDeps, 'pool' | 'repos'>, submissionId: string, logger: Logger): Promise<void> {
  try {
    const pool = await activePool(deps);
    if (pool === null || (await pool.scheduler.placement(submissionId)).state === 'unknown') return;
    const summary = await deps.repos.submissions.getSummary(submissionId);
    if (summary !== null && isTerminal(summary.state as SubmissionState)) await pool.scheduler.finished(submissionId);
  } catch (error) {
    logger.warn({ err: error, submissionId }, 'account pool: slots not given back now; the reconcile schedule takes them back');
  }
}

/** The self-hosted runner labels of the pool account a submission publishes on ([] without an account or labels). */
export async function runnerLabelsOf(deps: Pick<PipelineDeps, 'repos'>, account: string | undefined): Promise<string[]> {
  if (account === undefined) return [];
  const row = (await deps.repos.benchAccounts.list()).find((found) => found.owner.toLowerCase() === account.toLowerCase());
  return row?.runnerLabels ?? [];
}
