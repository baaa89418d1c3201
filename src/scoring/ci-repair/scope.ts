import type { InstanceHealth, InstanceLifecycle } from '../../domain/states.js';
import type { CiInstance } from './types.js';

/**
 * Health values excluded from the default scope when an instance has no lifecycle (`unreplayable`: its replays all
 * end infra_error on a backend). With a lifecycle, the lifecycle decides: only `active` instances are scored.
 */
export const UNHEALTHY: readonly InstanceHealth[] = ['flaky', 'drifted', 'broken', 'unreplayable'];

/** The instances scored, and those left out with why. */
export interface CiScope {
  includeUnhealthy: boolean;
  instances: CiInstance[];
  excluded: { id: string; repo: string; health: InstanceHealth; lifecycle?: InstanceLifecycle; reason?: string | null }[];
}

/** Splits instances into the scope (healthy and unknown, plus unhealthy ones when asked) and the excluded list. */
export function selectScope(instances: readonly CiInstance[], includeUnhealthy = false): CiScope {
  const inScope: CiInstance[] = [];
  const excluded: CiScope['excluded'] = [];
  for (const instance of instances) {
    const out = instance.lifecycle === undefined ? UNHEALTHY.includes(instance.health) : instance.lifecycle !== 'active';
    if (includeUnhealthy || !out) inScope.push(instance);
    else {
      excluded.push({
        id: instance.id,
        repo: instance.repo,
        health: instance.health,
        ...(instance.lifecycle === undefined ? {} : { lifecycle: instance.lifecycle, reason: instance.lifecycleReason ?? null }),
      });
    }
  }
  return { includeUnhealthy, instances: inScope, excluded };
}
