import { runGit } from './run-git.js';
import { assertCommitSha } from './validate.js';

/**
 * The patch from one commit to another in the same repository (`git diff --binary --full-index`, no rename
 * detection), as `git apply` takes it back; empty when the trees are equal. Blobs a partial clone lacks are
 * fetched from its promisor remote by git.
 */
export async function diffCommits(gitDir: string, from: string, to: string, options: { timeoutMs?: number } = {}): Promise<string> {
  assertCommitSha(from);
  assertCommitSha(to);
  const result = await runGit(['diff', '--binary', '--full-index', '--no-renames', '--no-color', '--no-ext-diff', from, to, '--'], {
    gitDir,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  return result.stdout.toString('utf8');
}
