import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AppError, transient } from '../errors.js';
import { runGit } from './run-git.js';

/** Common options of the object helpers. */
export interface ObjectOptions {
  gitBinary?: string;
  timeoutMs?: number;
  /** Error code when the upstream answers but lacks an object (default `object_not_found`). */
  notFoundCode?: string;
  /**
   * Negotiate with our commits as "haves" (right for commits: only missing history is sent). Off for
   * blobs: a server assumes we hold every object reachable from our haves, blobs included, and would
   * send nothing; lazy fetches use the same `noop` negotiation. Default false.
   */
  negotiate?: boolean;
}

/**
 * Returns the subset of `oids` absent from `gitDir`'s object store, WITHOUT triggering a lazy fetch:
 * the lookup runs in a throwaway repository view (no promisor configuration) whose object directory
 * is the mirror's (GIT_OBJECT_DIRECTORY). git 2.39 has no GIT_NO_LAZY_FETCH.
 */
export async function findMissingObjects(gitDir: string, oids: readonly string[], options: ObjectOptions = {}): Promise<string[]> {
  const unique = [...new Set(oids)];
  if (unique.length === 0) return [];
  const view = await mkdtemp(path.join(tmpdir(), 'ci-replay-view-'));
  try {
    await Promise.all([mkdir(path.join(view, 'objects')), mkdir(path.join(view, 'refs'))]);
    await writeFile(path.join(view, 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(path.join(view, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = true\n');
    const result = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], {
      gitDir: view,
      cwd: view,
      env: { GIT_OBJECT_DIRECTORY: path.resolve(gitDir, 'objects') },
      input: `${unique.join('\n')}\n`,
      gitBinary: options.gitBinary,
      timeoutMs: options.timeoutMs,
    });
    return result.stdout.toString('utf8').split('\n')
      .filter((line) => line.endsWith(' missing'))
      .map((line) => line.slice(0, line.indexOf(' ')));
  } finally {
    await rm(view, { recursive: true, force: true });
  }
}

/**
 * Fetches objects (commits with their trees, or single blobs) from the promisor remote `origin`
 * in one round trip. Failure is classified by exit codes only: if the upstream answers `ls-remote`,
 * the objects do not exist there (permanent `object_not_found`), otherwise it is unreachable
 * (transient `fetch_failed`).
 */
export async function fetchObjects(gitDir: string, oids: readonly string[], options: ObjectOptions = {}): Promise<void> {
  if (oids.length === 0) return;
  const timeoutMs = options.timeoutMs ?? 600_000;
  const negotiation = options.negotiate === true ? [] : ['-c', 'fetch.negotiationAlgorithm=noop'];
  const result = await runGit([...negotiation, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--recurse-submodules=no',
    'origin', ...oids], { gitDir, timeoutMs, allowFailure: true, gitBinary: options.gitBinary });
  if (result.exitCode === 0) return;
  const probe = await runGit(['ls-remote', '--quiet', 'origin', 'HEAD'], {
    gitDir, timeoutMs, allowFailure: true, gitBinary: options.gitBinary,
  });
  const details = { oids, stderr: result.stderr.slice(-2000) };
  if (probe.exitCode !== 0) throw transient('fetch_failed', 'upstream could not be reached', details);
  let still = await findMissingObjects(gitDir, oids, options);
  // Objects only a fork has (a commit found on the fork the row names): the mirror's other promisor remotes.
  for (const remote of still.length === 0 ? [] : await otherPromisors(gitDir, options.gitBinary)) {
    await runGit([...negotiation, 'fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--recurse-submodules=no', remote, ...still], { gitDir, timeoutMs, allowFailure: true, gitBinary: options.gitBinary });
    still = await findMissingObjects(gitDir, still, options);
    if (still.length === 0) return;
  }
  if (still.length === 0) return;
  throw new AppError('permanent', `upstream does not have ${still.join(', ')}`, { code: options.notFoundCode ?? 'object_not_found', details });
}

/** Promisor remotes besides `origin` (forks added by the mirror cache). */
async function otherPromisors(gitDir: string, gitBinary: string | undefined): Promise<string[]> {
  const result = await runGit(['config', '--get-regexp', '^remote\\..*\\.promisor$'], { gitDir, allowFailure: true, gitBinary });
  return result.stdout.toString('utf8').split('\n')
    .map((line) => /^remote\.(.+)\.promisor true$/.exec(line.trim())?.[1])
    .filter((remote): remote is string => remote !== undefined && remote !== 'origin');
}
