import type { Rule } from '../rule.js';
import { SOURCED_CONFIGURATION_RULES } from './configuration.js';
import { SOURCED_DEPENDENCY_RULES } from './dependencies.js';
import { SOURCED_DOC_RULES } from './docs.js';
import { SOURCED_ENVIRONMENT_RULES } from './environment.js';
import { SOURCED_PACKAGE_RULES } from './packages.js';
import { SOURCED_SYNTAX_RULES } from './syntax.js';

/**
 * Failure messages read off the tools' own sources and documentation (issue 16, eighth pass), not off corpus logs:
 * messages of package managers, resolvers, compilers and parsers, the runner and its actions, docs builders and
 * link checkers that the corpus-derived rules did not know. Two helper sessions collected them, each with its
 * source, and checked that the table gave none of them its type; those that mislabelled a tuning-half log, and
 * those another rule already covers, were left out.
 */
const ALL: Rule[] = [
  ...SOURCED_SYNTAX_RULES,
  ...SOURCED_ENVIRONMENT_RULES,
  ...SOURCED_CONFIGURATION_RULES,
  ...SOURCED_DOC_RULES,
  ...SOURCED_PACKAGE_RULES,
  ...SOURCED_DEPENDENCY_RULES,
];

/**
 * yamllint's own syntax errors, which the linter rule (tried earlier than the compilers) would read as lint, and
 * javadoc's doclint errors, which javac-error would read as compile errors (`Error:  App.java:12: error: no @param`).
 */
const EARLY = new Set(['src-yamllint-syntax', 'src-javadoc-doclint-error']);
/**
 * Parse errors the compilers' type-error rules would take (C lexers, MSVC, the Dart front end, scalac), a Dart
 * package that does not resolve, and the JVM running out of memory, which the uncaught-exception rule would take.
 */
const BEFORE_TYPES = new Set(['src-c-lexer-syntax', 'src-msvc-syntax-more-codes', 'src-dart-cfe-syntax', 'src-scala-syntax-error', 'src-dart-package-not-resolved', 'src-jvm-out-of-memory']);

export const SOURCED_EARLY_RULES = ALL.filter((rule) => EARLY.has(rule.id));
export const SOURCED_BEFORE_TYPE_RULES = ALL.filter((rule) => BEFORE_TYPES.has(rule.id));
/** The rest, tried after every corpus-derived rule but the task names and fallbacks. */
export const SOURCED_RULES = ALL.filter((rule) => !EARLY.has(rule.id) && !BEFORE_TYPES.has(rule.id));
