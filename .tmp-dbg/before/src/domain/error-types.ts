/** The 12 CI error types of CI-Repair-Bench, and the spellings seen in the released data. */
export const ERROR_TYPES = [
  'Code Formatting',
  'Code Linting',
  'Syntax Error',
  'Runtime Error',
  'Test Failure',
  'Assertion Error',
  'Type Checking',
  'Dependency Issues',
  'Package Installation Error',
  'Configuration Error',
  'Environment Error',
  'Doc/Docstring',
] as const;

export type ErrorType = (typeof ERROR_TYPES)[number];

const ALIASES: Record<string, ErrorType> = {
  linting: 'Code Linting',
  'code quality': 'Code Linting',
  'type checking error': 'Type Checking',
  'import error': 'Dependency Issues',
  'package install error': 'Package Installation Error',
  'pkg. install error': 'Package Installation Error',
  'pkg install error': 'Package Installation Error',
  'build failure': 'Configuration Error',
  'infrastructure error': 'Environment Error',
  documentation: 'Doc/Docstring',
};

const CANONICAL = new Map<string, ErrorType>(ERROR_TYPES.map((type) => [type.toLowerCase(), type]));

/** Maps a label as spelled in a dataset onto one of the 12 types, or undefined when it is not one. */
export function normalizeErrorType(label: string): ErrorType | undefined {
  const key = label.trim().replace(/\s+/g, ' ').toLowerCase();
  return CANONICAL.get(key) ?? ALIASES[key];
}

export const isErrorType = (value: string): value is ErrorType => CANONICAL.get(value.toLowerCase()) === value;
