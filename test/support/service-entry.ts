import { join } from 'node:path';
import { inject } from 'vitest';
import { projectRoot } from '../../src/paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding the test build's `src/main.js` (global-setup.ts, test-build.ts). */
    testBuild: string;
  }
}

/**
 * The arguments that start the service's entry point in a child process: the test build's (its inline source maps on,
 * so stack traces name src/*.ts lines as under tsx), or src/main.ts through tsx outside a vitest run.
 */
export function serviceEntry(): string[] {
  let build: string | undefined;
  try {
    build = inject('testBuild');
  } catch {
    build = undefined;
  }
  return build === undefined ? ['--import', 'tsx', join(projectRoot(), 'src', 'main.ts')] : ['--enable-source-maps', join(build, 'src', 'main.js')];
}
