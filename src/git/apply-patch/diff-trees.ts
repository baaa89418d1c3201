import type { runGit } from '../run-git.js';
import { fetchObjects, findMissingObjects } from '../objects.js';

type Git = (args: readonly string[]) => ReturnType<typeof runGit>;

/** One changed path between two trees, as `git diff-tree --name-status` reports it. */
export interface TreeChange {
  /** A added, M modified, D deleted, T type/mode changed, R renamed (C copied is not detected). */
  status: 'A' | 'M' | 'D' | 'T' | 'R';
  path: string;
  /** Former path of a rename. */
  oldPath?: string;
  /** Rename similarity 0-100. */
  similarity?: number;
}

/**
 * Lists changed files between two trees (`diff-tree -r -z --raw`). With `renames`, deleted blobs that
 * rename detection would read are fetched in one batch first (best effort), then `-M` is used.
 */
export async function diffTrees(git: Git, from: string, to: string, renames: boolean): Promise<TreeChange[]> {
  const raw = await git(['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', from, to]);
  const plain = parseRaw(raw.stdout.toString('utf8'));
  const hasAdd = plain.some((c) => c.status === 'A');
  const deleted = plain.filter((c) => c.status === 'D');
  if (!renames || !hasAdd || deleted.length === 0) return plain.map(toChange);
  const gitDir = (await git(['rev-parse', '--absolute-git-dir'])).stdout.toString('utf8').trim();
  const missing = await findMissingObjects(gitDir, deleted.map((c) => c.oldOid));
  if (missing.length > 0) await fetchObjects(gitDir, missing).catch(() => undefined);
  const renamed = await git(['diff-tree', '-r', '-z', '--raw', '-M', '--no-abbrev', from, to]);
  return parseRaw(renamed.stdout.toString('utf8')).map(toChange);
}

interface RawChange {
  status: TreeChange['status'];
  score: number | undefined;
  oldOid: string;
  path: string;
  oldPath: string | undefined;
}

function toChange(raw: RawChange): TreeChange {
  return {
    status: raw.status,
    path: raw.path,
    ...(raw.oldPath === undefined ? {} : { oldPath: raw.oldPath }),
    ...(raw.score === undefined ? {} : { similarity: raw.score }),
  };
}

/** Parses `--raw -z` output: `:oldmode newmode oldoid newoid STATUS\0path\0[path2\0]`. */
function parseRaw(output: string): RawChange[] {
  const fields = output.split('\0');
  const changes: RawChange[] = [];
  let i = 0;
  while (i < fields.length) {
    const header = fields[i] ?? '';
    if (!header.startsWith(':')) {
      i += 1;
      continue;
    }
    const [, , oldOid = '', , statusField = ''] = header.slice(1).split(' ');
    const letter = statusField.charAt(0);
    const status: TreeChange['status'] = letter === 'A' || letter === 'D' || letter === 'T' || letter === 'R' ? letter : 'M';
    const score = statusField.length > 1 ? Number.parseInt(statusField.slice(1), 10) : undefined;
    if (letter === 'R' || letter === 'C') {
      changes.push({ status: 'R', score, oldOid, oldPath: fields[i + 1] ?? '', path: fields[i + 2] ?? '' });
      i += 3;
    } else {
      changes.push({ status, score: undefined, oldOid, path: fields[i + 1] ?? '', oldPath: undefined });
      i += 2;
    }
  }
  return changes;
}
