import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { transient } from '../errors.js';

const run = promisify(execFile);

async function git(args: string[], cwd?: string): Promise<void> {
  await run('git', args, { cwd, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
}

/**
 * Checks out `sha` of `source` into `dir` (created): a `--shared` clone for a local git directory,
 * a fetch of the single commit for a URL. The full history is reachable in the local case.
 */
export async function checkoutCommit(source: string, sha: string, dir: string): Promise<void> {
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
      mkdirSync(dir, { recursive: true });
      await git(['init', '-q', dir]);
      await git(['fetch', '-q', '--no-tags', source, sha], dir);
      await git(['checkout', '-q', '--detach', 'FETCH_HEAD'], dir);
      return;
    }
    await git(['clone', '-q', '--no-checkout', '--shared', source, dir]);
    await git(['checkout', '-q', '--detach', sha], dir);
  } catch (error) {
    throw transient('checkout_failed', `could not check out ${sha}: ${(error as Error).message}`, error);
  }
}
