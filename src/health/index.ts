export { healthSummary, renderHealthSummary, type HealthSummary } from './summary.js';
export { setLifecycleByHand, transitionView, type LifecycleActionResult } from './operator-actions.js';
