import { RUNNER_RULES, LIMIT_RULES, SANDBOX_RULES } from './runner-rules.js';
import { SETUP_RULES } from './setup-rules.js';
import { STEP_RULES } from './step-rules.js';
import type { OutcomeRule } from './rule.js';

export { NETWORK_ERROR } from './step-rules.js';
export type { Issuer, OutcomeRule, Precedence, RuleScope } from './rule.js';

/**
 * The rule table, in precedence order: `job` rules first, then `setup`, then `step` rules (the first that applies
 * decides). A failed `Set up job` that no `setup` rule explains is `job_setup_failed`; a failed step that no
 * `step` rule explains is the repository's failure (`failed`, `step_failed`).
 */
export const OUTCOME_RULES: readonly OutcomeRule[] = [...RUNNER_RULES, ...LIMIT_RULES, ...SANDBOX_RULES, ...SETUP_RULES, ...STEP_RULES];
