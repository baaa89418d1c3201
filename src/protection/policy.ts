/** The anti-tampering policy of a dataset: which of a candidate's edits are kept. */
import { invalidInput } from '../errors.js';

export const PROTECTIONS = ['ground-truth', 'paths', 'off'] as const;

/**
 * `ground-truth` (default): the default rules (CI configuration, tests, test configuration) plus the explicit
 * paths; a candidate's edit under a default rule is kept only where the ground truth edits the same file.
 * `paths`: only the explicit paths (the dataset's and the instance's). `off`: only the instance's paths.
 */
export type Protection = (typeof PROTECTIONS)[number];

/** A dataset's policy as stored (a missing row is the default). */
export interface DatasetPolicy {
  dataset: string;
  protection: Protection;
  /** Globs (picomatch, dotfiles matched) reverted whatever the ground truth does; added to every instance's own. */
  protectedPaths: string[];
  /** `stored`: a DatasetPolicy row exists; `default`: none, the default applies. */
  source: 'stored' | 'default';
}

export const DEFAULT_PROTECTION: Protection = 'ground-truth';

export const defaultPolicy = (dataset: string): DatasetPolicy => ({ dataset, protection: DEFAULT_PROTECTION, protectedPaths: [], source: 'default' });

export const isProtection = (value: string): value is Protection => (PROTECTIONS as readonly string[]).includes(value);

const MAX_GLOBS = 200;
const MAX_GLOB_LENGTH = 500;

/**
 * Checks explicit protected-path globs: relative, no `..` segment, nothing inside `.git/`, not empty, bounded.
 * Throws `invalid_input` (422 `invalid_protected_path`) naming the first bad glob; returns them trimmed and deduplicated.
 */
export function validateProtectedPaths(globs: readonly string[]): string[] {
  if (globs.length > MAX_GLOBS) throw invalidInput('invalid_protected_path', `at most ${MAX_GLOBS} protected paths`, { count: globs.length }, 422);
  const cleaned: string[] = [];
  for (const raw of globs) {
    const glob = raw.trim();
    const why = globProblem(glob);
    if (why !== null) throw invalidInput('invalid_protected_path', `protected path ${JSON.stringify(raw)} ${why}`, { path: raw }, 422);
    if (!cleaned.includes(glob)) cleaned.push(glob);
  }
  return cleaned;
}

function globProblem(glob: string): string | null {
  if (glob === '') return 'is empty';
  if (glob.length > MAX_GLOB_LENGTH) return `is longer than ${MAX_GLOB_LENGTH} characters`;
  if (glob.startsWith('/')) return 'is absolute: give a path relative to the repository root';
  if (/[\0\n\r]/.test(glob)) return 'contains a control character';
  const segments = glob.split('/');
  if (segments.includes('..')) return 'has a ".." segment';
  if (segments[0] === '.git') return 'points inside .git/';
  if (count(glob, '[') !== count(glob, ']') || count(glob, '{') !== count(glob, '}')) return 'has unbalanced brackets or braces';
  return null;
}

const count = (text: string, char: string): number => text.split(char).length - 1;
