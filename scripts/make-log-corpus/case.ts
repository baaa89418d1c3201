import type { ErrorType } from '../../src/domain/error-types.js';

export interface CaseStep {
  /** A custom step name; defaults to `Run <first script line>`. */
  name?: string;
  run: string;
  /** Kill the step after this many seconds and write the runner's timeout (or cancellation) marker. */
  killAfterSeconds?: number;
  killedBy?: 'timeout' | 'cancel';
}

/** One small broken (or healthy) project, the workflow steps run on it, and the labels its log must get. */
export interface CorpusCase {
  slug: string;
  name: string;
  labels: ErrorType[];
  files: Record<string, string>;
  /** Shell run before the job, not logged (build local wheels, create a venv). */
  setup?: string;
  steps: CaseStep[];
  job?: string;
}

export const TYPE_SLUGS: Record<ErrorType, string> = {
  'Code Formatting': 'code-formatting',
  'Code Linting': 'code-linting',
  'Syntax Error': 'syntax-error',
  'Runtime Error': 'runtime-error',
  'Test Failure': 'test-failure',
  'Assertion Error': 'assertion-error',
  'Type Checking': 'type-checking',
  'Dependency Issues': 'dependency-issues',
  'Package Installation Error': 'package-installation-error',
  'Configuration Error': 'configuration-error',
  'Environment Error': 'environment-error',
  'Doc/Docstring': 'doc-docstring',
};
