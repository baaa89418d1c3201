import { runGit } from './run-git.js';
import { assertCommitSha } from './validate.js';

/** A file in a commit's tree. */
export interface TreeFile {
  path: string;
  /** `100644`, `100755`, `120000` (symlink) or `160000` (submodule). */
  mode: string;
  oid: string;
}

/** Lists files (recursively) at `sha` whose path starts with the directory `prefix` (e.g. `.github/workflows`); '' lists all. */
export async function listFilesAt(gitDir: string, sha: string, prefix: string, options: { gitBinary?: string } = {}): Promise<TreeFile[]> {
  assertCommitSha(sha);
  const spec = prefix.replace(/\/+$/, '');
  const result = await runGit(['ls-tree', '-r', '-z', '--full-tree', sha, ...(spec === '' ? [] : ['--', spec])], {
    gitDir, env: { GIT_LITERAL_PATHSPECS: '1' }, gitBinary: options.gitBinary,
  });
  const files: TreeFile[] = [];
  for (const line of result.stdout.toString('utf8').split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', , oid = ''] = line.slice(0, tab).split(' ');
    files.push({ path: line.slice(tab + 1), mode, oid });
  }
  return files;
}

/**
 * Reads a file's bytes at `sha`, or null when the path is not a file there. In a partial clone the
 * blob is fetched lazily from the upstream.
 */
export async function readFileAt(gitDir: string, sha: string, filePath: string, options: { gitBinary?: string } = {}): Promise<Buffer | null> {
  const entry = (await listFilesAt(gitDir, sha, filePath, options)).find((f) => f.path === filePath);
  if (entry === undefined || entry.mode === '160000') return null;
  const result = await runGit(['cat-file', 'blob', entry.oid], { gitDir, gitBinary: options.gitBinary, failureKind: 'transient', failureCode: 'fetch_failed' });
  return result.stdout;
}
