import type { Rule } from './rule.js';
import { ECOSYSTEM_QUALITY_RULES } from './ecosystem-quality.js';
import { ECOSYSTEM_TEST_RULES } from './ecosystem-tests.js';

/** Node, Go, Rust, Java and C toolchains: tests, lint, type checks, installs (in matching order). */
export const ECOSYSTEM_RULES: Rule[] = [...ECOSYSTEM_TEST_RULES, ...ECOSYSTEM_QUALITY_RULES];
