import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { transient } from '../errors.js';
import { gitEnv } from '../git/run-git.js';

const run = promisify(execFile);

/** git for the executor's own bookkeeping: no hooks, no auto gc, no prompts, never the user's or system config. */
async function git(args: string[], cwd?: string): Promise<string> {
  const { stdout } = await run('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'gc.auto=0', '-c', 'maintenance.auto=false', '-c', 'protocol.version=2', ...args], {
    cwd,
    timeout: 600_000,
    maxBuffer: 16 * 1024 * 1024,
    // the fixed system PATH and clean environment every git of the service gets (src/git/run-git.ts)
    env: gitEnv(),
  });
  return stdout;
}

export interface SourceViewOptions {
  /** The local repository the run's commit was pushed to (bare or not): every branch of every submission is there. */
  source: string;
  sha: string;
  /** The run's full ref (`refs/heads/<branch>`): the one ref the view holds besides tags. */
  ref: string;
  /** Where the view is created (a bare repository; removed with the run). */
  dir: string;
  /**
   * Cache of base views, one per parent commit: the view then borrows its parent's history from there (alternates)
   * and copies only the run's own commit. Without it, every view copies the whole history.
   */
  cacheDir?: string;
}

/** A ref the run's commit is stored under in the view: the run's own ref, or a fixed branch for a detached run. */
const viewRef = (ref: string): string => (/^refs\/(heads|tags|pull)\/\S+$/.test(ref) ? ref : 'refs/heads/ci-replay-run');

/**
 * Fetches `sha` from `source` into the bare repository `dir` under `ref`. A fetch (never a local clone, which would
 * hard-link or borrow the source's whole object store) transfers only the objects reachable from `sha` that the
 * repository and its alternates lack, plus the tags pointing into that history (git's tag auto-following).
 */
async function fetchInto(dir: string, source: string, sha: string, ref: string): Promise<void> {
  await git(['--git-dir', dir, 'fetch', '--quiet', '--no-write-fetch-head', '--no-recurse-submodules', source, `+${sha}:${ref}`]);
}

async function initBare(dir: string): Promise<void> {
  await git(['init', '--quiet', '--bare', dir]);
  mkdirSync(join(dir, 'objects', 'info'), { recursive: true });
}

/**
 * The base view of a parent commit: a bare repository holding exactly that commit's history and the tags pointing
 * into it, built once (into a temporary directory, then renamed: concurrent runs of the same instance never see half
 * of one) and shared by every run whose commit has that parent. Everything in it is reachable from each such run's
 * commit, so borrowing its objects gives a step nothing the run's own history does not.
 */
async function baseView(cacheDir: string, source: string, parent: string): Promise<string> {
  const key = createHash('sha256').update(realpathSync(source)).digest('hex').slice(0, 16);
  const path = join(cacheDir, key, `${parent}.git`);
  if (existsSync(join(path, 'ci-replay-view'))) return path;
  mkdirSync(join(cacheDir, key), { recursive: true, mode: 0o755 });
  const temporary = `${path}.tmp-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  try {
    await initBare(temporary);
    await fetchInto(temporary, source, parent, 'refs/ci-replay/base');
    writeFileSync(join(temporary, 'ci-replay-view'), `base view of ${parent}\n`);
    try {
      renameSync(temporary, path);
    } catch {
      // another run built it first
    }
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
  if (!existsSync(join(path, 'ci-replay-view'))) throw new Error(`base view of ${parent} could not be created`);
  return path;
}

async function parentsOf(source: string, sha: string): Promise<string[]> {
  const line = (await git(['--git-dir', gitDirOf(source), 'rev-list', '--parents', '-n', '1', sha])).trim();
  return line.split(/\s+/).slice(1);
}

function gitDirOf(source: string): string {
  const dotGit = join(source, '.git');
  return existsSync(dotGit) ? dotGit : source;
}

/**
 * Creates the repository steps reach as `origin` (README "Isolation model"): a bare repository holding only the
 * run's commit under the run's ref, the commits reachable from it and the tags pointing into that history — what
 * `git clone --bare --no-local --single-branch --branch <b>` gives — and nothing else of `source`: no other
 * submission's branch (a reference run's commit is the ground truth), no later upstream history. With a cache, the
 * history behind the commit's single parent is borrowed from that parent's base view (built once per parent), so a
 * run copies only its own commit; a root or merge commit gets a full copy. Returns the view's path.
 */
export async function createSourceView(options: SourceViewOptions): Promise<string> {
  const source = resolve(options.source);
  const dir = resolve(options.dir);
  const ref = viewRef(options.ref);
  try {
    const parents = options.cacheDir === undefined ? [] : await parentsOf(source, options.sha);
    const base = options.cacheDir !== undefined && parents.length === 1 && parents[0] !== undefined ? await baseView(options.cacheDir, source, parents[0]) : null;
    await initBare(dir);
    if (base !== null) writeFileSync(join(dir, 'objects', 'info', 'alternates'), `${join(base, 'objects')}\n`);
    await fetchInto(dir, source, options.sha, ref);
    if (ref.startsWith('refs/heads/')) await git(['--git-dir', dir, 'symbolic-ref', 'HEAD', ref]);
    return dir;
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw transient('source_view_failed', `could not prepare the run's source repository: ${(error as Error).message}`, error);
  }
}
