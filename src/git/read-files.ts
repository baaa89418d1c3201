import { AppError } from '../errors.js';
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

/** A file in a commit's tree with its bytes. */
export interface TreeFileContent extends TreeFile {
  bytes: Buffer;
}

/**
 * Reads every file (recursively) at `sha` under the directory `prefix`, in two git processes whatever their
 * number: `ls-tree`, then one `cat-file --batch` for the blobs (lazily fetched in a partial clone, as
 * {@link readFileAt} does). Submodules are skipped, as readFileAt returns null for them.
 */
export async function readFilesAt(gitDir: string, sha: string, prefix: string, options: { gitBinary?: string } = {}): Promise<TreeFileContent[]> {
  const files = (await listFilesAt(gitDir, sha, prefix, options)).filter((file) => file.mode !== '160000');
  if (files.length === 0) return [];
  const result = await runGit(['cat-file', '--batch'], {
    gitDir, gitBinary: options.gitBinary, input: `${files.map((file) => file.oid).join('\n')}\n`, failureKind: 'transient', failureCode: 'fetch_failed',
  });
  const out = result.stdout;
  let offset = 0;
  return files.map((file) => {
    const newline = out.indexOf(0x0a, offset);
    const header = newline < 0 ? '' : out.subarray(offset, newline).toString('utf8');
    const [oid = '', type = '', size = ''] = header.split(' ');
    if (oid !== file.oid || type !== 'blob') {
      throw new AppError('transient', `git cat-file could not read ${file.path}`, { code: 'fetch_failed', details: { command: 'cat-file', path: file.path } });
    }
    const bytes = Buffer.from(out.subarray(newline + 1, newline + 1 + Number(size)));
    offset = newline + 1 + Number(size) + 1;
    return { ...file, bytes };
  });
}
