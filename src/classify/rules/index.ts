import { ACTIONS_CONFIG_RULES } from './actions-config.js';
import { BUILD_SYSTEM_RULES } from './build-systems.js';
import { COMPILER_SYNTAX_RULES, COMPILER_TYPE_RULES } from './compilers.js';
import { DOC_RULES } from './docs.js';
import { ECOSYSTEM_RULES } from './ecosystems.js';
import { ENVIRONMENT_RULES, RUNTIME_RULES } from './environment.js';
import { EXTRA_ECOSYSTEM_RULES } from './extra-ecosystems.js';
import { FALLBACK_RULES } from './fallback.js';
import { PACKAGE_MANAGER_RULES } from './package-managers.js';
import { PYTHON_BUILD_RULES } from './python-build.js';
import { PYTHON_QUALITY_RULES } from './python-quality.js';
import { PYTHON_TEST_RULES } from './python-tests.js';
import { QUALITY_RULES } from './quality-tools.js';
import type { Rule } from './rule.js';
import { RUNNER_ENVIRONMENT_RULES } from './runner-environment.js';
import { OUTPUT_SIGNATURE_RULES } from './output-signatures.js';
import { RUNTIME_MESSAGE_RULES } from './runtime-messages.js';
import { SOURCED_BEFORE_TYPE_RULES, SOURCED_EARLY_RULES, SOURCED_RULES } from './sourced/index.js';
import { TASK_NAME_RULES } from './task-names.js';
import { TEST_CRASH_RULES } from './test-crashes.js';
import { TEST_FRAMEWORK_RULES } from './test-frameworks.js';
import { TOOLCHAIN_RULES } from './toolchains.js';
import { TEST_RUNNER_RULES } from './test-runners.js';

export type { ParsedFinding, Rule, RuleState } from './rule.js';
export { CMD } from './commands.js';
export { detectTools } from './signatures.js';

/** Every rule, in the order they are tried on a line (the first match wins the line). */
export const RULES: readonly Rule[] = [
  ...SOURCED_EARLY_RULES,
  ...ENVIRONMENT_RULES,
  ...RUNNER_ENVIRONMENT_RULES,
  ...ACTIONS_CONFIG_RULES,
  ...TOOLCHAIN_RULES,
  ...PACKAGE_MANAGER_RULES,
  ...BUILD_SYSTEM_RULES,
  ...PYTHON_BUILD_RULES,
  ...PYTHON_TEST_RULES,
  ...TEST_FRAMEWORK_RULES,
  ...TEST_CRASH_RULES,
  ...TEST_RUNNER_RULES,
  ...PYTHON_QUALITY_RULES,
  ...QUALITY_RULES,
  ...DOC_RULES,
  ...COMPILER_SYNTAX_RULES,
  ...ECOSYSTEM_RULES,
  ...EXTRA_ECOSYSTEM_RULES,
  ...SOURCED_BEFORE_TYPE_RULES,
  ...COMPILER_TYPE_RULES,
  ...RUNTIME_MESSAGE_RULES,
  ...RUNTIME_RULES,
  ...SOURCED_RULES,
  ...OUTPUT_SIGNATURE_RULES,
  ...TASK_NAME_RULES,
  ...FALLBACK_RULES,
];
