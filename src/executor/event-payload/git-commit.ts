import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** What the push payload says about one commit, read from the repository being run. */
export interface CommitInfo {
  sha: string;
  tree: string;
  /** First parent, or null for a root commit. */
  parent: string | null;
  message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  added: string[];
  removed: string[];
  modified: string[];
}

const isUrl = (source: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(source);

async function git(gitDir: string, args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('git', args, { cwd: gitDir, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** Paths changed by the commit against its first parent (everything for a root commit), by kind. */
function changedPaths(nameStatus: string): Pick<CommitInfo, 'added' | 'removed' | 'modified'> {
  const out: Pick<CommitInfo, 'added' | 'removed' | 'modified'> = { added: [], removed: [], modified: [] };
  const fields = nameStatus.split('\0').filter((f) => f !== '');
  for (let i = 0; i < fields.length; ) {
    const status = fields[i] ?? '';
    // renames and copies carry two paths: GitHub reports a rename as removed + added
    const paths = /^[RC]/.test(status) ? fields.slice(i + 1, i + 3) : fields.slice(i + 1, i + 2);
    i += 1 + paths.length;
    const [first = '', second = ''] = paths;
    if (status.startsWith('R')) {
      out.removed.push(first);
      out.added.push(second);
    } else if (status.startsWith('C') || status === 'A') out.added.push(second || first);
    else if (status === 'D') out.removed.push(first);
    else out.modified.push(first);
  }
  return out;
}

/** The commit `sha` of a local git directory, or null when it cannot be read (a URL source, an unknown sha). */
export async function readCommit(gitDir: string, sha: string): Promise<CommitInfo | null> {
  if (isUrl(gitDir)) return null;
  try {
    const format = ['%H', '%T', '%P', '%an', '%ae', '%aI', '%cn', '%ce', '%cI', '%B'].join('%x00');
    const [id = '', tree = '', parents = '', an = '', ae = '', ad = '', cn = '', ce = '', cd = '', message = ''] =
      (await git(gitDir, ['show', '-s', `--format=${format}`, sha, '--'])).split('\0');
    const parent = parents.split(' ').find((p) => p !== '') ?? null;
    const diffArgs = parent === null ? ['--root', sha] : [parent, sha];
    const changes = changedPaths(await git(gitDir, ['diff-tree', '-r', '-z', '--no-commit-id', '--name-status', '-M', ...diffArgs]));
    return {
      sha: id, tree, parent, message: message.replace(/\n+$/, ''),
      author: { name: an, email: ae, date: ad }, committer: { name: cn, email: ce, date: cd }, ...changes,
    };
  } catch {
    return null;
  }
}

/** The branch HEAD of the git directory points to (its default branch), or null. */
export async function readDefaultBranch(gitDir: string): Promise<string | null> {
  if (isUrl(gitDir)) return null;
  try {
    const branch = (await git(gitDir, ['symbolic-ref', '--short', 'HEAD'])).trim();
    return branch === '' ? null : branch;
  } catch {
    return null;
  }
}
