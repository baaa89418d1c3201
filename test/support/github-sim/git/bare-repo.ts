import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git, gitOk } from './git-cli.js';

export const ZERO_SHA = '0000000000000000000000000000000000000000';

/** Pre-receive hook: rejects commits that add or change `.github/workflows/` unless the pushing token may write workflows. */
const PRE_RECEIVE = `#!/bin/sh
# github-sim: SIM_ALLOW_WORKFLOWS is set per request by the simulator from the token's permissions.
[ "$SIM_ALLOW_WORKFLOWS" = "1" ] && exit 0
zero=${ZERO_SHA}
status=0
while read old new ref; do
  [ "$new" = "$zero" ] && continue
  for c in $(git rev-list "$new" --not --all); do
    f=$(git diff-tree --no-commit-id --name-only -r -m --root "$c" -- .github/workflows/ | head -n 1)
    if [ -n "$f" ]; then
      echo "refusing to allow a GitHub App to create or update workflow \\\`$f\\\` without \\\`workflows\\\` permission" >&2
      status=1
      break
    fi
  done
done
exit $status
`;

/**
 * Post-receive hook: writes the refs this push updated (`old new ref` lines) to the file the simulator names per
 * request, so concurrent pushes each report only their own refs (as GitHub's push events do).
 */
const POST_RECEIVE = `#!/bin/sh
[ -n "$SIM_PUSH_LOG" ] && cat > "$SIM_PUSH_LOG"
exit 0
`;

export async function installHooks(gitDir: string): Promise<void> {
  const hook = join(gitDir, 'hooks', 'pre-receive');
  await mkdir(dirname(hook), { recursive: true });
  await writeFile(hook, PRE_RECEIVE);
  await chmod(hook, 0o755);
  const postReceive = join(gitDir, 'hooks', 'post-receive');
  await writeFile(postReceive, POST_RECEIVE);
  await chmod(postReceive, 0o755);
  await gitOk(['config', 'http.receivepack', 'true'], { cwd: gitDir });
  await gitOk(['config', 'uploadpack.allowAnySHA1InWant', 'true'], { cwd: gitDir });
  await gitOk(['config', 'receive.denyDeleteCurrent', 'false'], { cwd: gitDir });
}

export async function initBareRepo(gitDir: string, defaultBranch: string): Promise<void> {
  await mkdir(gitDir, { recursive: true });
  await gitOk(['init', '-q', '--bare', `--initial-branch=${defaultBranch}`, gitDir]);
  await installHooks(gitDir);
}

export async function cloneBare(source: string, gitDir: string, branch: string | null): Promise<void> {
  const args = ['clone', '-q', '--bare', '--no-local'];
  if (branch) args.push('--single-branch', '--branch', branch);
  await gitOk([...args, source, gitDir]);
  await installHooks(gitDir);
}

export interface CommitSpec {
  files: Record<string, string>;
  message: string;
  branch: string;
  author?: { name: string; email: string };
  /** Keep the files of the branch's current tip and overlay these (default true). */
  keepExisting?: boolean;
}

/** Commits files directly into a bare repository (no hooks run); returns the new commit SHA. */
export async function commitFiles(gitDir: string, spec: CommitSpec): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'github-sim-commit-'));
  const author = spec.author ?? { name: 'Sim Author', email: 'sim@example.com' };
  const env = {
    GIT_INDEX_FILE: join(work, '.index'),
    GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: author.name, GIT_COMMITTER_EMAIL: author.email,
  };
  try {
    const parent = (await git(['rev-parse', '--verify', '-q', `refs/heads/${spec.branch}`], { cwd: gitDir })).stdout.trim();
    if (parent && spec.keepExisting !== false) await gitOk(['read-tree', parent], { cwd: gitDir, env });
    const tree = join(work, 'tree');
    for (const [path, content] of Object.entries(spec.files)) {
      const file = join(tree, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
      await chmod(file, path.endsWith('.sh') ? 0o755 : 0o644);
    }
    await gitOk(['--work-tree', tree, 'add', '-A', '--', ...Object.keys(spec.files)], { cwd: gitDir, env });
    const treeSha = (await gitOk(['write-tree'], { cwd: gitDir, env })).trim();
    const commit = (await gitOk(['commit-tree', treeSha, ...(parent ? ['-p', parent] : []), '-m', spec.message], { cwd: gitDir, env })).trim();
    await gitOk(['update-ref', `refs/heads/${spec.branch}`, commit], { cwd: gitDir });
    return commit;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export async function listRefs(gitDir: string): Promise<Map<string, string>> {
  const out = await gitOk(['for-each-ref', '--format=%(objectname) %(refname)'], { cwd: gitDir });
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [sha, ref] = line.split(' ');
    if (sha && ref) refs.set(ref, sha);
  }
  return refs;
}

export interface CommitInfo {
  sha: string;
  treeId: string;
  message: string;
  timestamp: string;
  author: { name: string; email: string };
  committer: { name: string; email: string };
}

/** Objects named by a full SHA never change: what was read of them is kept (bounded), so busy simulations spawn fewer git processes. */
const immutable = new Map<string, Promise<unknown>>();
function remembered<T>(key: string, sha: string, read: () => Promise<T>): Promise<T> {
  if (!/^[0-9a-f]{40}$/.test(sha)) return read();
  const found = immutable.get(key) as Promise<T> | undefined;
  if (found !== undefined) return found;
  const value = read();
  immutable.set(key, value);
  value.catch(() => immutable.delete(key));
  if (immutable.size > 5000) immutable.delete(immutable.keys().next().value ?? '');
  return value;
}

export async function readCommit(gitDir: string, sha: string): Promise<CommitInfo> {
  return remembered(`commit:${gitDir}:${sha}`, sha, () => readCommitUncached(gitDir, sha));
}

async function readCommitUncached(gitDir: string, sha: string): Promise<CommitInfo> {
  const out = await gitOk(['show', '-s', '--format=%H%x00%T%x00%an%x00%ae%x00%cn%x00%ce%x00%cI%x00%B', sha], { cwd: gitDir });
  const [id = sha, tree = '', an = '', ae = '', cn = '', ce = '', date = '', ...rest] = out.split('\0');
  return { sha: id, treeId: tree, author: { name: an, email: ae }, committer: { name: cn, email: ce }, timestamp: date, message: rest.join('\0').trimEnd() };
}

export async function listCommits(gitDir: string, from: string, to: string): Promise<string[]> {
  const range = from === ZERO_SHA ? [to, '-n', '20'] : [`${from}..${to}`, '-n', '20'];
  const out = await git(['rev-list', '--reverse', ...range], { cwd: gitDir });
  return out.stdout.split('\n').filter(Boolean);
}

export async function readWorkflowFiles(gitDir: string, sha: string): Promise<{ path: string; text: string }[]> {
  return remembered(`workflows:${gitDir}:${sha}`, sha, () => readWorkflowFilesUncached(gitDir, sha));
}

async function readWorkflowFilesUncached(gitDir: string, sha: string): Promise<{ path: string; text: string }[]> {
  const list = await git(['ls-tree', '--name-only', `${sha}:.github/workflows`], { cwd: gitDir });
  if (list.code !== 0) return [];
  const files = list.stdout.split('\n').filter((name) => /\.ya?ml$/.test(name));
  return Promise.all(files.map(async (name) => {
    const path = `.github/workflows/${name}`;
    return { path, text: await gitOk(['show', `${sha}:${path}`], { cwd: gitDir }) };
  }));
}

export async function resolveRef(gitDir: string, ref: string): Promise<string | null> {
  const result = await git(['rev-parse', '--verify', '-q', `${ref}^{commit}`], { cwd: gitDir });
  return result.code === 0 ? result.stdout.trim() : null;
}

export async function isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
  return (await git(['merge-base', '--is-ancestor', ancestor, descendant], { cwd: gitDir })).code === 0;
}

/**
 * Files a push of `ref` changed, as `on.push.paths` sees them (GitHub's rule): an existing branch compares `before..after`;
 * a new branch compares `after` with the parent of the deepest commit the push brought (every file when that commit is a
 * root); a new branch whose commits were all on other refs already changed nothing.
 */
export async function changedFiles(gitDir: string, ref: string, before: string, after: string): Promise<string[]> {
  const lines = (out: string): string[] => out.split('\n').filter(Boolean);
  let from = before;
  if (before === ZERO_SHA) {
    const fresh = lines((await gitOk(['rev-list', '--topo-order', after, '--not', `--exclude=${ref}`, '--all'], { cwd: gitDir })));
    const deepest = fresh[fresh.length - 1];
    if (!deepest) return [];
    const parent = await git(['rev-parse', '--verify', '-q', `${deepest}^`], { cwd: gitDir });
    if (parent.code !== 0) return lines(await gitOk(['ls-tree', '-r', '--name-only', after], { cwd: gitDir }));
    from = parent.stdout.trim();
  }
  const diff = await git(['diff', '--name-only', '--no-renames', from, after], { cwd: gitDir });
  // `before` unknown here (e.g. history rewritten elsewhere): GitHub runs the workflow when it cannot diff.
  return diff.code === 0 ? lines(diff.stdout) : lines(await gitOk(['ls-tree', '-r', '--name-only', after], { cwd: gitDir }));
}

/** The ref updates a post-receive hook recorded in `path` (none when the push updated nothing); removes the file. */
export async function readPushLog(path: string): Promise<{ ref: string; before: string; after: string }[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  await rm(path, { force: true });
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length === 3)
    .map(([before = '', after = '', ref = '']) => ({ ref, before, after }))
    .filter((update) => update.before !== update.after);
}
