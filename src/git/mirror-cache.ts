import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { invalidInput, permanent } from '../errors.js';
import { fetchObjects, findMissingObjects } from './objects.js';
import { createRepoLock, type RepoLock } from './repo-lock.js';
import { runGit } from './run-git.js';
import { assertCommitSha, assertNoUserinfo } from './validate.js';

/** An upstream repository: owner/name name the cache entry, url is where it is fetched from. */
export interface UpstreamRepo {
  owner: string;
  name: string;
  /** https:// URL, file:// URL or an absolute local path (turned into a file:// URL). */
  url: string;
}

/** Options of {@link createMirrorCache}. */
export interface MirrorCacheOptions {
  /** Directory holding `mirrors/<owner>--<name>.git`. */
  dataDir: string;
  logger: Logger;
  /** Time limit of one clone or fetch (default 10 minutes). */
  fetchTimeoutMs?: number;
  /** Time to wait for another worker holding the repository lock (default 10 minutes). */
  lockTimeoutMs?: number;
  /** git executable (default `git`). */
  gitBinary?: string;
}

/** Per-upstream cache of bare partial clones (`--filter=blob:none`); blobs arrive lazily. */
export interface MirrorCache {
  /**
   * Makes sure every commit in `shas` (full 40-hex SHAs) is present in the mirror of `repo`, cloning it
   * on first use and fetching missing commits from the upstream. Returns the mirror's git directory.
   * Serialized per repository, in-process and across processes.
   * Throws transient `fetch_failed` when the upstream cannot be reached, permanent `commit_not_found`
   * when it answers but does not have a commit, invalid_input for a bad repository or URL.
   */
  ensureCommits(repo: UpstreamRepo, shas: readonly string[]): Promise<string>;
  /** Path of the mirror's git directory (whether or not it exists yet). */
  gitDirOf(repo: Pick<UpstreamRepo, 'owner' | 'name'>): string;
}

const NAME_PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

/**
 * Creates the mirror cache. For file:// upstreams the mirror is configured to ask the local
 * upload-pack to allow filters and any-SHA wants, so the partial clone and lazy blob fetches work offline.
 */
export function createMirrorCache(options: MirrorCacheOptions): MirrorCache {
  const lock: RepoLock = createRepoLock({ timeoutMs: options.lockTimeoutMs });
  const mirrorsDir = path.join(options.dataDir, 'mirrors');
  const fetchTimeoutMs = options.fetchTimeoutMs ?? 600_000;
  const git = { gitBinary: options.gitBinary };

  const gitDirOf = (repo: Pick<UpstreamRepo, 'owner' | 'name'>): string => {
    if (!NAME_PART.test(repo.owner) || !NAME_PART.test(repo.name) || repo.name.endsWith('.lock')) {
      throw invalidInput('invalid_repository', 'repository owner/name contains characters not allowed');
    }
    return path.join(mirrorsDir, `${repo.owner}--${repo.name}.git`);
  };

  const cloneInto = async (repo: UpstreamRepo, url: string, gitDir: string): Promise<void> => {
    await mkdir(mirrorsDir, { recursive: true });
    const tmp = path.join(mirrorsDir, `.tmp-${repo.owner}--${repo.name}-${randomBytes(6).toString('hex')}`);
    const uploadPack = url.startsWith('file:') ? LOCAL_UPLOAD_PACK : undefined;
    try {
      await runGit(['clone', '--bare', '--quiet', '--no-tags', '--filter=blob:none',
        ...(uploadPack === undefined ? [] : ['--upload-pack', uploadPack]), '--', url, tmp], {
        timeoutMs: fetchTimeoutMs, failureKind: 'transient', failureCode: 'fetch_failed', ...git,
      });
      const settings: [string, string][] = [
        ['gc.auto', '0'], ['maintenance.auto', 'false'], ['core.logAllRefUpdates', 'false'],
        ['remote.origin.tagOpt', '--no-tags'], ['fetch.recurseSubmodules', 'false'],
        ...(uploadPack === undefined ? [] : [['remote.origin.uploadpack', uploadPack] satisfies [string, string]]),
      ];
      for (const [key, value] of settings) await runGit(['config', key, value], { gitDir: tmp, ...git });
      await rename(tmp, gitDir);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  };

  return {
    gitDirOf,
    async ensureCommits(repo, shas) {
      const gitDir = gitDirOf(repo);
      for (const sha of shas) assertCommitSha(sha);
      const url = upstreamUrl(repo.url);
      const lockFile = path.join(mirrorsDir, `${repo.owner}--${repo.name}.lock`);
      await mkdir(mirrorsDir, { recursive: true });
      return lock.withLock(gitDir, lockFile, async () => {
        const started = Date.now();
        const exists = await isDirectory(gitDir);
        if (!exists) {
          options.logger.info({ repo: `${repo.owner}/${repo.name}` }, 'cloning mirror');
          await cloneInto(repo, url, gitDir);
        }
        const missing = await findMissingObjects(gitDir, shas, git);
        if (missing.length > 0) {
          options.logger.info({ repo: `${repo.owner}/${repo.name}`, missing }, 'fetching commits into mirror');
          await fetchObjects(gitDir, missing, { ...git, timeoutMs: fetchTimeoutMs, notFoundCode: 'commit_not_found', negotiate: true });
          await assertCommits(gitDir, shas, git.gitBinary);
        }
        options.logger.debug({ repo: `${repo.owner}/${repo.name}`, cloned: !exists, fetched: missing.length,
          ms: Date.now() - started }, 'mirror ready');
        return gitDir;
      });
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

async function isDirectory(target: string): Promise<boolean> {
  try {
    return (await stat(target)).isDirectory();
  } catch {
    return false;
  }
}
