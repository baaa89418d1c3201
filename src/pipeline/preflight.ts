import type { Logger } from 'pino';
import type { CiBackend, PreflightInput } from '../backends/ci-backend.js';
import type { InstanceRow } from '../db/index.js';
import { isAppError } from '../errors.js';
import { renderBlockers, summarizeBlockers, type Blocker } from '../workflows/index.js';
import type { PipelineDeps } from './context.js';
import type { PreparedCommit, StandardizationRecord } from './prepare.js';

/** What the preflight found, as stored with the standardization record. */
export interface PreflightRecord {
  backend: CiBackend['name'];
  blockers: Blocker[];
}

export function preflightInput(submissionId: string, instance: PreflightInput['instance'], prepared: Pick<PreparedCommit, 'workflow' | 'callees'>): PreflightInput {
  return { submissionId, instance, workflow: prepared.workflow, callees: prepared.callees };
}

/** The standardization record with the preflight's result added (its markdown gains a `## Preflight` section). */
export function withPreflight(standardization: StandardizationRecord, preflight: PreflightRecord): StandardizationRecord {
  return { ...standardization, preflight, markdown: `${standardization.markdown}\n${renderBlockers(preflight.backend, preflight.blockers)}` };
}

/**
 * Runs the backend's preflight on a prepared commit, before anything is pushed. With blockers the submission
 * ends `infra_error` (verdict `invalid`, reason `not_replayable`, the blockers in `reasonDetails`); a failing
 * preflight call ends it `infra_error` (`backend_error`) unless the failure is transient (the job is retried).
 * Returns the standardization record to store, or null when the submission has ended.
 */
export async function preflightSubmission(
  deps: Pick<PipelineDeps, 'backend' | 'repos'>,
  submissionId: string,
  instance: InstanceRow,
  prepared: PreparedCommit,
  upstreamUrl: string,
  logger: Logger,
): Promise<StandardizationRecord | null> {
  const backend = deps.backend.name;
  let blockers: Blocker[];
  try {
    blockers = await deps.backend.preflight(
      preflightInput(submissionId, { id: instance.id, repoOwner: instance.repoOwner, repoName: instance.repoName, upstreamUrl, shaFail: instance.shaFail }, prepared),
    );
  } catch (error) {
    if (isAppError(error) && (error.kind === 'transient' || error.kind === 'rate_limited')) throw error;
    const message = `preflight on the ${backend} backend failed: ${error instanceof Error ? error.message : String(error)}`;
    await deps.repos.submissions.transition(submissionId, ['preparing'], 'infra_error', {
      verdict: 'invalid',
      outcome: 'infra_error',
      reason: 'backend_error',
      errorMessage: message,
      standardization: prepared.standardization,
      completedAt: new Date(),
    });
    return null;
  }
  const standardization = withPreflight(prepared.standardization, { backend, blockers });
  if (blockers.length === 0) return standardization;
  await deps.repos.submissions.transition(submissionId, ['preparing'], 'infra_error', {
    verdict: 'invalid',
    outcome: 'infra_error',
    reason: 'not_replayable',
    reasonDetails: { backend, blockers },
    errorMessage: summarizeBlockers(backend, blockers),
    revertedFiles: prepared.revertedFiles,
    standardization,
    preparedAt: new Date(),
    completedAt: new Date(),
  });
  logger.info({ submissionId, backend, blockers: blockers.map((blocker) => blocker.code) }, 'not replayable on this backend: nothing pushed');
  return null;
}
