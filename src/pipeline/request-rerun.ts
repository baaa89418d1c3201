import type { Logger } from 'pino';
import { jobId } from '../queue/index.js';
import type { PipelineDeps } from './context.js';

/**
 * A re-run of a submission asked for on GitHub (the check run's action or "Re-run" button, or a workflow re-run
 * diverted by the account pool). A submission's state only moves forward, so a re-run is a NEW submission row: same
 * instance, patch, kind and run, `attempt` = the original's attempt + 1 (its branch gets the `-a<n>` suffix),
 * idempotency key `rerun-<original id>-<n>` (a repeated click or delivery re-queues once; it cannot collide with a
 * caller's key, which is stored scoped as `<token id>:<key>`), the original's owner. It is queued for `prepare`,
 * which admits it through the account pool like any new submission (it waits for its account's slots).
 * Returns the re-run's id, or null when the original is unknown.
 */
export async function requestRerun(deps: Pick<PipelineDeps, 'repos' | 'queues'>, originalId: string, logger: Logger, source: string): Promise<string | null> {
  const original = await deps.repos.submissions.get(originalId);
  if (original === null) return null;
  const attempt = original.attempt + 1;
  const { submission, created } = await deps.repos.submissions.createIdempotent({
    instanceId: original.instanceId,
    runId: original.runId,
    kind: original.kind as Parameters<typeof deps.repos.submissions.createIdempotent>[0]['kind'],
    patch: original.patch,
    patchSha256: original.patchSha256,
    idempotencyKey: `rerun-${original.id}-${attempt}`,
    requestHash: null,
    ownerTokenId: original.ownerTokenId,
    attempt,
  });
  if (submission.state === 'queued' && submission.enqueuedAt === null) {
    await deps.queues.add('prepare', { submissionId: submission.id }, { jobId: jobId('submission', submission.id) });
    await deps.repos.submissions.markEnqueued([submission.id]);
  }
  logger.info({ submissionId: original.id, rerunId: submission.id, attempt, created, source }, 're-run requested');
  return submission.id;
}
