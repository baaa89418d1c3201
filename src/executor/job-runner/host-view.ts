import { join, relative, sep } from 'node:path';
import type { JobState } from './job-state.js';

/**
 * Where the executor (outside the sandbox) finds a path a step names: the steps' /tmp and /var/tmp are the job's
 * own `tmp` directory; every other path of the job directory is the same inside and out.
 */
export function hostView(state: JobState, path: string): string {
  if (state.sandbox === null || path === state.jobDir || path.startsWith(`${state.jobDir}${sep}`)) return path;
  for (const dir of ['/tmp', '/var/tmp']) {
    if (path === dir || path.startsWith(`${dir}${sep}`)) return join(state.jobDir, 'tmp', relative(dir, path));
  }
  return path;
}
