import type { DeliveryHook } from '../../pipeline/deliveries.js';
import { jobId } from '../../queue/index.js';
import { RERUN_ACTION } from './check-run.js';

/**
 * The check run's "Re-run" button (`check_run` / `requested_action`, identifier `rerun`). A submission's state
 * only moves forward, so a re-run is a NEW submission row: same instance, patch, kind and run, `attempt` = the
 * clicked submission's attempt + 1 (its branch gets the `-a<n>` suffix), idempotency key
 * `rerun-<clicked submission id>-<n>` (a repeated click or delivery on the same check run re-queues once; it cannot
 * collide with a caller's key, which is stored scoped as `<token id>:<key>`). The re-run has the clicked submission's owner.
 */
export const rerunDeliveryHook: DeliveryHook = async (delivery, deps, logger) => {
  if (delivery.event !== 'check_run' || delivery.action !== 'requested_action') return 'ignored';
  const payload = delivery.payload as { check_run?: { external_id?: string | null; name?: string }; requested_action?: { identifier?: string } };
  if (payload.requested_action?.identifier !== RERUN_ACTION.identifier) return 'ignored';
  const submissionId = payload.check_run?.external_id ?? null;
  if (submissionId === null || !/^[0-9a-f-]{36}$/i.test(submissionId)) return 'ignored';
  const original = await deps.repos.submissions.get(submissionId);
  if (original === null) return 'ignored';
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
  });
  if (submission.state === 'queued' && submission.enqueuedAt === null) {
    await deps.repos.submissions.update(submission.id, { attempt });
    await deps.queues.add('prepare', { submissionId: submission.id }, { jobId: jobId('submission', submission.id) });
    await deps.repos.submissions.markEnqueued([submission.id]);
  }
  logger.info({ submissionId, rerunId: submission.id, attempt, created }, 're-run requested from the check run');
  return 'processed';
};
