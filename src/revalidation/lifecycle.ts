import type { InstanceLifecycle } from '../domain/states.js';
import type { RevalidationResult } from './judge.js';

export interface LifecycleMove {
  to: InstanceLifecycle;
  reason: string;
}

/**
 * The lifecycle move a re-validation's verdict causes (docs/revalidation.md):
 * - `healthy` brings a suspect or quarantined instance back to `active`, unless an operator quarantined it by hand
 *   (only an operator restores those);
 * - `broken` quarantines at once (its data cannot be prepared: repeating will not help);
 * - `flaky`, `drifted`, `unreplayable`: `active → suspect`, and a suspect judged unhealthy again → `quarantined`;
 * - `inconclusive` moves nothing.
 * Returns null when the instance stays where it is.
 */
export function lifecycleMove(current: InstanceLifecycle, verdict: RevalidationResult, options: { manualQuarantine: boolean }): LifecycleMove | null {
  if (verdict === 'inconclusive') return null;
  if (verdict === 'healthy') {
    if (current === 'active' || (current === 'quarantined' && options.manualQuarantine)) return null;
    return { to: 'active', reason: 'healthy re-validation' };
  }
  if (verdict === 'broken') return current === 'quarantined' ? null : { to: 'quarantined', reason: 'broken: the instance cannot be prepared' };
  if (current === 'active') return { to: 'suspect', reason: `re-validation judged it ${verdict}` };
  if (current === 'suspect') return { to: 'quarantined', reason: `re-validation judged it ${verdict} again` };
  return null;
}
