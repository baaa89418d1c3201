import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { AppError, invalidInput, permanent } from '../errors.js';
import { locateMissing, type CommitLocation, type MissingCommit } from './commit-sources.js';
import { remoteGitError } from './git-error.js';
import { createRepoLock, type RepoLock } from './repo-lock.js';
import { runGit, text } from './run-git.js';
import { assertCommitSha, assertNoUserinfo } from './validate.js';

export { COMMIT_SOURCES, forkUrlOf, type CommitLocation, type CommitSource, type MissingCommit } from './commit-sources.js';

/** An upstream repository: owner/name name it in messages, url is where it is fetched from (and keys the mirror). */
export interface UpstreamRepo {
  owner: string;
  name: string;
  /** https:// URL, file:// URL or an absolute local path (turned into a file:// URL). */
  url: string;
  /** Owners of forks that may hold commits the upstream lacks (the fork owner a dataset row names); tried last. */
  forkOwners?: readonly string[];
}

/** Options of {@link createMirrorCache}. */
export interface MirrorCacheOptions {
  /** Directory holding `mirrors/<owner>--<name>--<url hash>.git`. */
  dataDir: string;
  logger: Logger;
  /** Time limit of one clone or fetch (default 10 minutes). */
  fetchTimeoutMs?: number;
  /** Time to wait for another worker holding the repository lock (default 10 minutes). */
  lockTimeoutMs?: number;
  /** git executable (default `git`). */
  gitBinary?: string;
  /** upload-pack command for file:// upstreams (default: git's, allowing filters and any-SHA wants). */
  localUploadPack?: string;
}

/** The commits asked for, found (with where) or missing (with what was tried). */
export interface LocatedCommits {
  gitDir: string;
  found: CommitLocation[];
  missing: MissingCommit[];
}

/** Per-upstream-URL cache of bare partial clones (`--filter=blob:none`); blobs arrive lazily. */
export interface MirrorCache {
  /**
   * Makes sure every commit in `shas` (full 40-hex SHAs) is present in the mirror of `repo`, cloning it on first
   * use and fetching what is missing (see {@link MirrorCache.locateCommits}). Returns the mirror's git directory.
   * Serialized per mirror, in-process and across processes. Throws transient `fetch_failed` when the upstream cannot
   * be reached (the URL, the git command and git's message in the error), permanent `commit_not_found` when no
   * source has a commit (what was tried in the message), invalid_input for a bad repository or URL.
   */
  ensureCommits(repo: UpstreamRepo, shas: readonly string[]): Promise<string>;
  /**
   * Like ensureCommits, but a commit no source has is reported, not thrown; each found commit says where it was:
   * the mirror, the upstream's branches, a fetch by SHA, `refs/pull/*\/head`, or a fork in `repo.forkOwners`.
   */
  locateCommits(repo: UpstreamRepo, shas: readonly string[]): Promise<LocatedCommits>;
  /** Path of the mirror's git directory (whether or not it exists yet): one per upstream URL. */
  gitDirOf(repo: Pick<UpstreamRepo, 'owner' | 'name' | 'url'>): string;
}

const NAME_PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

/**
 * Creates the mirror cache. A mirror is keyed by the upstream's URL (owner, name and a hash of the URL name its
 * directory): an instance whose upstream moves gets a new mirror, never the old URL's. For file:// upstreams the
 * mirror asks the local upload-pack to allow filters and any-SHA wants, so the partial clone and lazy blob fetches
 * work offline.
 */
export function createMirrorCache(options: MirrorCacheOptions): MirrorCache {
  const lock: RepoLock = createRepoLock({ timeoutMs: options.lockTimeoutMs });
  const mirrorsDir = path.join(options.dataDir, 'mirrors');
  const fetchTimeoutMs = options.fetchTimeoutMs ?? 600_000;
  const gitBinary = options.gitBinary;
  const uploadPackFor = (url: string): string | undefined => (url.startsWith('file:') ? (options.localUploadPack ?? LOCAL_UPLOAD_PACK) : undefined);

  const keyOf = (repo: Pick<UpstreamRepo, 'owner' | 'name' | 'url'>): { key: string; url: string } => {
    if (!NAME_PART.test(repo.owner) || !NAME_PART.test(repo.name) || repo.name.endsWith('.lock')) {
      throw invalidInput('invalid_repository', 'repository owner/name contains characters not allowed');
    }
    const url = upstreamUrl(repo.url);
    return { key: `${repo.owner}--${repo.name}--${createHash('sha256').update(url).digest('hex').slice(0, 12)}`, url };
  };
  const gitDirOf = (repo: Pick<UpstreamRepo, 'owner' | 'name' | 'url'>): string => path.join(mirrorsDir, `${keyOf(repo).key}.git`);

  const cloneInto = async (key: string, url: string, gitDir: string): Promise<void> => {
    await mkdir(mirrorsDir, { recursive: true });
    const tmp = path.join(mirrorsDir, `.tmp-${key}-${randomBytes(6).toString('hex')}`);
    const uploadPack = uploadPackFor(url);
    try {
      const args = ['clone', '--bare', '--quiet', '--no-tags', '--filter=blob:none', ...(uploadPack === undefined ? [] : ['--upload-pack', uploadPack]), '--', url, tmp];
      const result = await runGit(args, { timeoutMs: fetchTimeoutMs, allowFailure: true, gitBinary });
      if (result.exitCode !== 0) throw remoteGitError('transient', 'fetch_failed', 'git clone of', url, args, result);
      // A clone that "succeeded" without a single ref (an empty upstream, a server that sent nothing) is no mirror:
      // later lazy fetches would fail far from the cause (`not our ref … from promisor remote`).
      if (!(await hasRefs(tmp, gitBinary))) {
        throw new AppError('permanent', `git clone of ${url} brought no branches: the upstream is empty or sent no refs; no mirror was kept`, {
          code: 'empty_upstream', details: { url, command: `git ${args.slice(0, -1).join(' ')} <mirror>` },
        });
      }
      const settings: [string, string][] = [
        ['gc.auto', '0'], ['maintenance.auto', 'false'], ['core.logAllRefUpdates', 'false'],
        ['remote.origin.tagOpt', '--no-tags'], ['fetch.recurseSubmodules', 'false'],
        ...(uploadPack === undefined ? [] : [['remote.origin.uploadpack', uploadPack] satisfies [string, string]]),
      ];
      for (const [key, value] of settings) await runGit(['config', key, value], { gitDir: tmp, gitBinary });
      await rename(tmp, gitDir);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  };

  const locateCommits = async (repo: UpstreamRepo, shas: readonly string[]): Promise<LocatedCommits> => {
    const { key, url } = keyOf(repo);
    const gitDir = path.join(mirrorsDir, `${key}.git`);
    for (const sha of shas) assertCommitSha(sha);
    await mkdir(mirrorsDir, { recursive: true });
    const label = `${repo.owner}/${repo.name}`;
    return lock.withLock(gitDir, path.join(mirrorsDir, `${key}.lock`), async () => {
      const started = Date.now();
      let existed = await isDirectory(gitDir);
      if (existed && !(await hasRefs(gitDir, gitBinary))) {
        // Left by an interrupted clone of an older version: no refs means nothing can be fetched into it safely.
        options.logger.warn({ repo: label, url, gitDir }, 'mirror without refs: removed and cloned again');
        await rm(gitDir, { recursive: true, force: true });
        existed = false;
      }
      if (!existed) {
        options.logger.info({ repo: label, url }, 'cloning mirror');
        await cloneInto(key, url, gitDir);
      }
      const located = await locateMissing(
        { gitDir, url, owner: repo.owner, name: repo.name, logger: options.logger, timeoutMs: fetchTimeoutMs, gitBinary, uploadPackFor },
        { shas, existed, forkOwners: repo.forkOwners ?? [] },
      );
      options.logger.debug({ repo: label, url, cloned: !existed, sources: located.found.map((f) => `${f.sha.slice(0, 12)}:${f.source}`), missing: located.missing.length, ms: Date.now() - started }, 'mirror ready');
      return { gitDir, ...located };
    });
  };

  return {
    gitDirOf,
    locateCommits,
    async ensureCommits(repo, shas) {
      const located = await locateCommits(repo, shas);
      const [first] = located.missing;
      if (first !== undefined) {
        const url = upstreamUrl(repo.url);
        throw new AppError('permanent', `commit ${located.missing.map((m) => m.sha).join(', ')} of ${repo.owner}/${repo.name} was not found; tried ${first.tried.join(', ')}`, {
          code: 'commit_not_found', details: { url, missing: located.missing },
        });
      }
      await assertCommits(located.gitDir, shas, gitBinary);
      return located.gitDir;
    },
  };
}

/** upload-pack command for local upstreams: lets a file:// server honour filters and SHA wants. */
const LOCAL_UPLOAD_PACK = 'git -c uploadpack.allowFilter=true -c uploadpack.allowAnySHA1InWant=true upload-pack';

/** Normalizes an upstream location to a URL git can partial-clone from; rejects embedded credentials. */
export function upstreamUrl(location: string): string {
  if (path.isAbsolute(location)) return pathToFileURL(location).href;
  assertNoUserinfo(location);
  if (/^(https?|file|ssh|git):\/\//.test(location)) return location;
  throw invalidInput('invalid_url', 'upstream must be an https://, file:// URL or an absolute path');
}

/** Throws permanent `not_a_commit` when one of `shas` names an object that is not a commit. */
async function assertCommits(gitDir: string, shas: readonly string[], gitBinary: string | undefined): Promise<void> {
  for (const sha of shas) {
    const result = await runGit(['cat-file', '-e', `${sha}^{commit}`], { gitDir, allowFailure: true, gitBinary });
    if (result.exitCode !== 0) throw permanent('not_a_commit', `${sha} is not a commit`);
  }
}

async function hasRefs(gitDir: string, gitBinary: string | undefined): Promise<boolean> {
  const result = await runGit(['for-each-ref', '--count=1', '--format=%(refname)'], { gitDir, allowFailure: true, gitBinary });
  return result.exitCode === 0 && text(result) !== '';
}

async function isDirectory(target: string): Promise<boolean> {
  try {
    return (await stat(target)).isDirectory();
  } catch {
    return false;
  }
}
