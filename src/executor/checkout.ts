import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { transient } from '../errors.js';

const run = promisify(execFile);

const isUrl = (source: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(source);

async function git(args: string[], cwd?: string): Promise<string> {
  const { stdout } = await run('git', args, { cwd, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** `fetch-depth` as actions/checkout reads it: default 1, anything not a non-negative number means 0 (all history). */
export function fetchDepth(value: string | undefined): number {
  const text = value?.trim() ?? '';
  const depth = Math.floor(Number(text === '' ? '1' : text));
  return Number.isNaN(depth) || depth < 0 ? 0 : depth;
}

export interface CheckoutSpec {
  /** A local git directory (bare or not) or a URL `git fetch` understands; becomes the `origin` remote. */
  source: string;
  sha: string;
  /** Created when missing; files already there are overwritten by the checkout, a `.git` there is replaced. */
  dir: string;
  /** The full ref the commit is checked out as: `refs/heads/x` gives branch `x` tracking `origin/x`; null detaches at `sha`. */
  ref: string | null;
  /** Commits of history fetched (`git fetch --depth`); 0 = all branches, tags and their full history. */
  depth: number;
  /** With a depth: also fetch the tags pointing into the fetched history (git's tag auto-following). */
  fetchTags: boolean;
  /** Receives each git command line as GitHub's checkout logs it (without the `[command]` prefix). */
  onCommand?: (commandLine: string) => void;
}

/** Where actions/checkout fetches the commit to: its remote-tracking branch, its tag, or nowhere (detached). */
function destination(ref: string | null): { ref: string | null; branch: string | null } {
  if (ref?.startsWith('refs/heads/') === true) {
    const branch = ref.slice('refs/heads/'.length);
    return { ref: `refs/remotes/origin/${branch}`, branch };
  }
  if (ref?.startsWith('refs/pull/') === true) return { ref: `refs/remotes/pull/${ref.slice('refs/pull/'.length)}`, branch: null };
  if (ref?.startsWith('refs/tags/') === true) return { ref, branch: null };
  return { ref: null, branch: null };
}

/** The objects directory of a local repository (for the alternates of a full-history checkout). */
async function objectsDir(source: string): Promise<string> {
  for (const dir of [join(source, '.git', 'objects'), join(source, 'objects')]) if (existsSync(dir)) return resolve(dir);
  return (await git(['rev-parse', '--path-format=absolute', '--git-path', 'objects'], source)).trim();
}

/**
 * Checks out `sha` of `source` into `dir` the way actions/checkout does: `git init`, remote `origin`, then
 * - depth N > 0: `git fetch --depth=N origin +<sha>:<dest>` (a real shallow clone holding only those commits;
 *   a local source is fetched through `file://`, which honours `--depth`), `--no-tags` unless `fetchTags`;
 * - depth 0: all branches and tags with their full history. For a local source the clone borrows the
 *   source's objects (alternates) instead of copying them, so it stays cheap whatever the history's size.
 * A branch ref is checked out as that branch (`checkout -B x refs/remotes/origin/x`), anything else detached.
 */
export async function checkoutCommit(spec: CheckoutSpec): Promise<void> {
  const { sha, dir } = spec;
  const dest = destination(spec.ref);
  const url = isUrl(spec.source) ? spec.source : `file://${resolve(spec.source)}`;
  const logged = async (args: string[]): Promise<void> => {
    spec.onCommand?.(`/usr/bin/git ${args.join(' ')}`);
    await git(args, dir);
  };
  try {
    mkdirSync(dir, { recursive: true });
    rmSync(join(dir, '.git'), { recursive: true, force: true }); // a repeated checkout into the same path starts afresh
    await git(['init', '-q', dir]);
    await git(['remote', 'add', 'origin', url], dir);
    const target = dest.ref === null ? sha : `+${sha}:${dest.ref}`;
    if (spec.depth > 0) {
      await logged(['-c', 'protocol.version=2', 'fetch', ...(spec.fetchTags ? [] : ['--no-tags']), '--prune', '--no-recurse-submodules', `--depth=${spec.depth}`, 'origin', target]);
    } else {
      if (!isUrl(spec.source)) writeFileSync(join(dir, '.git', 'objects', 'info', 'alternates'), `${await objectsDir(spec.source)}\n`);
      await logged(['-c', 'protocol.version=2', 'fetch', '--prune', '--no-recurse-submodules', 'origin', '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*']);
      // the run's commit may not be a branch tip: point its ref at it (as the targeted refetch of actions/checkout does)
      if (isUrl(spec.source)) await git(['-c', 'protocol.version=2', 'fetch', '-q', '--no-tags', 'origin', target], dir);
      else if (dest.ref !== null) await git(['update-ref', dest.ref, sha], dir);
    }
    if (dest.branch !== null) await logged(['checkout', '--progress', '--force', '-B', dest.branch, dest.ref ?? sha]);
    else await logged(['checkout', '--progress', '--force', dest.ref ?? sha]);
  } catch (error) {
    throw transient('checkout_failed', `could not check out ${sha}: ${(error as Error).message}`, error);
  }
}
