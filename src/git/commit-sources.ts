import type { Logger } from 'pino';
import { gitSaid, remoteGitError } from './git-error.js';
import { findMissingObjects } from './objects.js';
import { runGit, text, type GitResult } from './run-git.js';

/**
 * Where a commit was found: already in the `mirror`; on a `branch` of the upstream (the clone or the normal fetch
 * of its branches); fetched by `sha` from the upstream (a server that serves unadvertised commits, as GitHub does
 * for anything reachable from its refs); on a `pull_ref` (`refs/pull/<n>/head`); or on the `fork` named in the row.
 */
export type CommitSource = 'mirror' | 'branch' | 'sha' | 'pull_ref' | 'fork';

export const COMMIT_SOURCES: readonly CommitSource[] = ['mirror', 'branch', 'sha', 'pull_ref', 'fork'];

/** A commit found, and where. */
export interface CommitLocation {
  sha: string;
  source: CommitSource;
  /** The ref that holds it, where known (`refs/pull/12/head`, `refs/heads/main` of the fork). */
  ref: string | null;
  /** The URL it came from (the upstream's, or the fork's), without credentials. */
  url: string;
}

/** A commit no source had, with what was tried. */
export interface MissingCommit {
  sha: string;
  tried: string[];
}

/** What {@link locateMissing} works on: a mirror whose `origin` is the upstream. */
export interface LocateContext {
  gitDir: string;
  url: string;
  owner: string;
  name: string;
  logger: Logger;
  timeoutMs: number;
  gitBinary: string | undefined;
  /** upload-pack command for file:// remotes (forks served from disk), or undefined. */
  uploadPackFor: (url: string) => string | undefined;
}

export interface LocateRequest {
  shas: readonly string[];
  /** Whether the mirror existed before this call (present commits are then `mirror`, else `branch`). */
  existed: boolean;
  forkOwners: readonly string[];
}

/**
 * Finds every commit of `shas`, fetching what the mirror lacks: the upstream's branches (when the mirror existed
 * before), then each missing commit by SHA, then the upstream's `refs/pull/*\/head` (only the refs whose tip is a
 * missing commit when there are such, else all of them), then the forks. Throws transient `fetch_failed` (URL,
 * command, git's message) when the upstream cannot be reached; a fork that cannot be reached is only noted.
 */
export async function locateMissing(ctx: LocateContext, request: LocateRequest): Promise<{ found: CommitLocation[]; missing: MissingCommit[] }> {
  const found = new Map<string, CommitLocation>();
  const tried: string[] = [];
  const git = { gitDir: ctx.gitDir, timeoutMs: ctx.timeoutMs, gitBinary: ctx.gitBinary, allowFailure: true };
  let missing = await findMissingObjects(ctx.gitDir, request.shas, { gitBinary: ctx.gitBinary });
  const mark = async (source: CommitSource, url: string, refOf: (sha: string) => Promise<string | null>): Promise<void> => {
    const still = await findMissingObjects(ctx.gitDir, missing, { gitBinary: ctx.gitBinary });
    for (const sha of missing.filter((candidate) => !still.includes(candidate))) found.set(sha, { sha, source, ref: await refOf(sha), url });
    missing = still;
  };
  for (const sha of request.shas) {
    if (!missing.includes(sha)) found.set(sha, { sha, source: request.existed ? 'mirror' : 'branch', ref: null, url: ctx.url });
  }
  if (missing.length > 0 && request.existed) {
    const args = ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--recurse-submodules=no', 'origin', '+refs/heads/*:refs/heads/*'];
    const result = await runGit(args, git);
    if (result.exitCode !== 0) await throwIfUnreachable(ctx, 'origin', ctx.url, args, result);
    tried.push(`the branches of ${ctx.url}`);
    await mark('branch', ctx.url, (sha) => containingRef(ctx, sha, 'refs/heads/'));
  }
  for (const sha of [...missing]) {
    const args = ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--recurse-submodules=no', 'origin', sha];
    const result = await runGit(args, git);
    if (result.exitCode !== 0) await throwIfUnreachable(ctx, 'origin', ctx.url, args, result);
  }
  if (missing.length > 0) {
    tried.push(`a fetch by SHA from ${ctx.url}`);
    await mark('sha', ctx.url, async () => null);
  }
  if (missing.length > 0) await fetchPullRefs(ctx, missing, tried);
  if (missing.length > 0) await mark('pull_ref', ctx.url, (sha) => containingRef(ctx, sha, 'refs/pull/'));
  const forks = [...new Set(request.forkOwners.filter((fork) => fork.toLowerCase() !== ctx.owner.toLowerCase()))];
  for (const fork of forks) {
    if (missing.length === 0) break;
    const forkUrl = forkUrlOf(ctx.url, ctx.owner, fork);
    if (forkUrl === null) {
      tried.push(`the fork ${fork}/${ctx.name} (its URL cannot be derived from ${ctx.url})`);
      continue;
    }
    const note = await fetchFromFork(ctx, fork, forkUrl, missing);
    tried.push(`the fork ${forkUrl}${note === null ? '' : ` (${note})`}`);
    await mark('fork', forkUrl, (sha) => containingRef(ctx, sha, `refs/forks/${fork}/`));
  }
  return { found: request.shas.flatMap((sha) => found.get(sha) ?? []), missing: missing.map((sha) => ({ sha, tried })) };
}

/** The fork's URL: the upstream's with the owner segment replaced (`https://github.com/<fork>/<name>.git`, `file:///srv/<fork>/<name>.git`). */
export function forkUrlOf(url: string, owner: string, fork: string): string | null {
  const match = /^(.*[/:])([^/:]+)\/([^/]+?)(\.git)?\/?$/.exec(url);
  if (match === null || (match[2] ?? '').toLowerCase() !== owner.toLowerCase()) return null;
  return `${match[1] ?? ''}${fork}/${match[3] ?? ''}${match[4] ?? ''}`;
}

async function throwIfUnreachable(ctx: LocateContext, remote: string, url: string, args: readonly string[], result: GitResult): Promise<void> {
  const probe = await runGit(['ls-remote', '--quiet', remote, 'HEAD'], { gitDir: ctx.gitDir, timeoutMs: ctx.timeoutMs, gitBinary: ctx.gitBinary, allowFailure: true });
  if (probe.exitCode === 0) return;
  throw remoteGitError('transient', 'fetch_failed', 'git fetch from', url, args, result);
}

async function fetchPullRefs(ctx: LocateContext, missing: readonly string[], tried: string[]): Promise<void> {
  const git = { gitDir: ctx.gitDir, timeoutMs: ctx.timeoutMs, gitBinary: ctx.gitBinary, allowFailure: true };
  const listed = await runGit(['ls-remote', 'origin', 'refs/pull/*/head'], git);
  if (listed.exitCode !== 0) {
    tried.push(`refs/pull/*/head of ${ctx.url} (could not be listed: ${gitSaid(listed.stderr, 1)})`);
    return;
  }
  const refs = text(listed).split('\n').filter((line) => line !== '').map((line) => line.split('\t') as [string, string]);
  if (refs.length === 0) {
    tried.push(`refs/pull/*/head of ${ctx.url} (none)`);
    return;
  }
  const tips = refs.filter(([sha]) => missing.includes(sha)).map(([, ref]) => ref);
  // A missing commit at a pull request's tip: that ref only. Otherwise every pull ref (a commit inside a pull request).
  const wanted = tips.length === missing.length ? tips : ['refs/pull/*/head'];
  const args = ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--recurse-submodules=no', 'origin', ...wanted.map((ref) => `+${ref}:${ref}`)];
  const result = await runGit(args, git);
  if (result.exitCode !== 0) await throwIfUnreachable(ctx, 'origin', ctx.url, args, result);
  tried.push(`refs/pull/*/head of ${ctx.url} (${refs.length} refs)`);
}

/** Fetches the missing commits from a fork (a promisor remote too, so blobs only the fork has still arrive lazily); returns a note when it could not. */
async function fetchFromFork(ctx: LocateContext, fork: string, url: string, missing: readonly string[]): Promise<string | null> {
  const remote = `fork-${fork}`;
  const git = { gitDir: ctx.gitDir, timeoutMs: ctx.timeoutMs, gitBinary: ctx.gitBinary };
  const uploadPack = ctx.uploadPackFor(url);
  const settings: [string, string][] = [
    [`remote.${remote}.url`, url], [`remote.${remote}.promisor`, 'true'], [`remote.${remote}.partialclonefilter`, 'blob:none'],
    [`remote.${remote}.tagOpt`, '--no-tags'], ...(uploadPack === undefined ? [] : [[`remote.${remote}.uploadpack`, uploadPack] satisfies [string, string]]),
  ];
  for (const [key, value] of settings) await runGit(['config', key, value], git);
  const probe = await runGit(['ls-remote', '--quiet', remote, 'HEAD'], { ...git, allowFailure: true });
  if (probe.exitCode !== 0) return `unreachable: ${gitSaid(probe.stderr, 2)}`;
  for (const sha of missing) {
    await runGit(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--recurse-submodules=no', '--filter=blob:none', remote, sha], { ...git, allowFailure: true });
  }
  const still = await findMissingObjects(ctx.gitDir, missing, { gitBinary: ctx.gitBinary });
  if (still.length === 0) return null;
  const result = await runGit(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--recurse-submodules=no', '--filter=blob:none', remote,
    `+refs/heads/*:refs/forks/${fork}/heads/*`, `+refs/pull/*/head:refs/forks/${fork}/pull/*`], { ...git, allowFailure: true });
  return result.exitCode === 0 ? null : `fetch failed: ${gitSaid(result.stderr, 2)}`;
}

async function containingRef(ctx: LocateContext, sha: string, prefix: string): Promise<string | null> {
  const exact = await runGit(['for-each-ref', '--format=%(refname)', '--points-at', sha, prefix], { gitDir: ctx.gitDir, gitBinary: ctx.gitBinary, allowFailure: true });
  const tip = text(exact).split('\n').find((line) => line !== '');
  if (tip !== undefined) return tip;
  const containing = await runGit(['for-each-ref', '--format=%(refname)', '--count=1', '--contains', sha, prefix], { gitDir: ctx.gitDir, gitBinary: ctx.gitBinary, allowFailure: true, timeoutMs: ctx.timeoutMs });
  return text(containing).split('\n').find((line) => line !== '') ?? null;
}
