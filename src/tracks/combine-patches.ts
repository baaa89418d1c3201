import type { InstanceRow } from '../db/index.js';
import { applyPatch, type MirrorCache } from '../git/index.js';
import { diffCommits } from '../git/diff-commits.js';
import { COMMIT_IDENTITY } from '../pipeline/prepare.js';

/**
 * One patch equivalent to applying `first` then `second` on the instance's sha_fail: both are applied with
 * git (3-way) in the mirror and the result is diffed against sha_fail. An empty `first` returns `second`.
 */
export async function combinePatches(
  deps: { mirrors: MirrorCache },
  instance: Pick<InstanceRow, 'repoOwner' | 'repoName' | 'upstreamUrl' | 'shaFail'>,
  first: string,
  second: string,
): Promise<{ ok: true; patch: string } | { ok: false; which: 'first' | 'second'; message: string }> {
  if (first === '') return { ok: true, patch: second };
  const upstream = { owner: instance.repoOwner, name: instance.repoName, url: instance.upstreamUrl ?? `https://github.com/${instance.repoOwner}/${instance.repoName}.git` };
  const gitDir = await deps.mirrors.ensureCommits(upstream, [instance.shaFail]);
  const common = { gitDir, identity: COMMIT_IDENTITY, date: new Date(0), message: 'ci-replay combined patch' };
  const base = await applyPatch({ ...common, baseSha: instance.shaFail, patch: first });
  if (!base.ok) return { ok: false, which: 'first', message: base.message };
  if (second === '') return { ok: true, patch: first };
  const next = await applyPatch({ ...common, baseSha: base.commitSha, patch: second });
  if (!next.ok) return { ok: false, which: 'second', message: next.message };
  return { ok: true, patch: await diffCommits(gitDir, instance.shaFail, next.commitSha) };
}
