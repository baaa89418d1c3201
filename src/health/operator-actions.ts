import type { Repositories, TransitionRecord } from '../db/index.js';
import type { InstanceLifecycle } from '../domain/states.js';
import { conflict, invalidInput, notFound } from '../errors.js';

export interface LifecycleActionResult {
  instanceId: string;
  from: InstanceLifecycle;
  to: InstanceLifecycle;
  reason: string;
  actor: string;
}

const checkReason = (reason: string | undefined): string => {
  const trimmed = (reason ?? '').trim();
  if (trimmed === '') throw invalidInput('reason_required', 'give a reason (it is kept in the instance\'s history)', undefined, 422);
  if (trimmed.length > 500) throw invalidInput('reason_too_long', 'the reason is longer than 500 characters', undefined, 422);
  return trimmed;
};

/**
 * An operator quarantines an instance by hand (from active or suspect) or restores it to active (from suspect or
 * quarantined), with a reason; both are kept as transitions. A hand quarantine is never lifted by a re-validation:
 * only a restore ends it.
 */
export async function setLifecycleByHand(
  repos: Pick<Repositories, 'instanceHealth'>,
  instanceId: string,
  action: 'quarantine' | 'restore',
  input: { reason?: string; actor: string },
): Promise<LifecycleActionResult> {
  const reason = checkReason(input.reason);
  const state = await repos.instanceHealth.get(instanceId);
  if (state === null) throw notFound('instance', instanceId);
  const from = state.lifecycle as InstanceLifecycle;
  const to: InstanceLifecycle = action === 'quarantine' ? 'quarantined' : 'active';
  if (from === to) throw conflict(action === 'quarantine' ? 'already_quarantined' : 'already_active', `instance ${instanceId} is already ${to}`);
  if (!(await repos.instanceHealth.move({ instanceId, from, to, reason, actor: input.actor }))) {
    throw conflict('lifecycle_changed', `instance ${instanceId} changed meanwhile; read it again and retry`);
  }
  return { instanceId, from, to, reason, actor: input.actor };
}

export const transitionView = (row: TransitionRecord) => ({
  from: row.fromStatus,
  to: row.toStatus,
  reason: row.reason,
  actor: row.actor,
  revalidationId: row.revalidationId,
  at: row.createdAt,
});
