import { ECOSYSTEM_RULES } from './ecosystems.js';
import { ENVIRONMENT_RULES, RUNTIME_RULES } from './environment.js';
import { FALLBACK_RULES } from './fallback.js';
import { PYTHON_BUILD_RULES } from './python-build.js';
import { PYTHON_QUALITY_RULES } from './python-quality.js';
import { PYTHON_TEST_RULES } from './python-tests.js';
import type { Rule } from './rule.js';

export type { ParsedFinding, Rule, RuleState } from './rule.js';
export { CMD } from './commands.js';

/** Every rule, in the order they are tried on a line (the first match wins the line). */
export const RULES: readonly Rule[] = [...ENVIRONMENT_RULES, ...PYTHON_BUILD_RULES, ...PYTHON_TEST_RULES, ...PYTHON_QUALITY_RULES, ...ECOSYSTEM_RULES, ...RUNTIME_RULES, ...FALLBACK_RULES];
