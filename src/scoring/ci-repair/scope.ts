import type { InstanceHealth } from '../../domain/states.js';
import type { CiInstance } from './types.js';

/** Health values excluded from the default scope (`unreplayable`: its replays all end infra_error on a backend). */
export const UNHEALTHY: readonly InstanceHealth[] = ['flaky', 'drifted', 'unreplayable'];

/** The instances scored, and those left out with why. */
export interface CiScope {
  includeUnhealthy: boolean;
  instances: CiInstance[];
  excluded: { id: string; repo: string; health: InstanceHealth }[];
}

/** Splits instances into the scope (healthy and unknown, plus unhealthy ones when asked) and the excluded list. */
export function selectScope(instances: readonly CiInstance[], includeUnhealthy = false): CiScope {
  const inScope: CiInstance[] = [];
  const excluded: CiScope['excluded'] = [];
  for (const instance of instances) {
    if (includeUnhealthy || !UNHEALTHY.includes(instance.health)) inScope.push(instance);
    else excluded.push({ id: instance.id, repo: instance.repo, health: instance.health });
  }
  return { includeUnhealthy, instances: inScope, excluded };
}
