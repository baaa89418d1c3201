import type { runGit, RunGitOptions } from '../run-git.js';

type Git = (args: readonly string[], extra?: RunGitOptions) => ReturnType<typeof runGit>;

/** A tree entry. */
export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
}

/** Either writes `oid` with `mode` at `path` in the index, or removes `path`. */
export type IndexUpdate = { path: string; mode: string; oid: string } | { path: string; remove: true };

const CHUNK = 500;

/** Looks up `paths` (literal pathspecs) in `tree`; paths absent from the tree are absent from the map. */
export async function lsTree(git: Git, tree: string, paths: readonly string[]): Promise<Map<string, TreeEntry>> {
  const entries = new Map<string, TreeEntry>();
  for (let start = 0; start < paths.length; start += CHUNK) {
    const chunk = paths.slice(start, start + CHUNK);
    const result = await git(['ls-tree', '-r', '-z', '--full-tree', tree, '--', ...chunk], { env: { GIT_LITERAL_PATHSPECS: '1' } });
    for (const line of result.stdout.toString('utf8').split('\0')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const [mode = '', type = '', oid = ''] = line.slice(0, tab).split(' ');
      entries.set(line.slice(tab + 1), { mode, type, oid });
    }
  }
  return entries;
}

/** Applies index updates in one `update-index -z --index-info` call. */
export async function updateIndex(git: Git, updates: readonly IndexUpdate[]): Promise<void> {
  if (updates.length === 0) return;
  const zero = '0'.repeat(40);
  const input = updates.map((u) => ('remove' in u ? `0 ${zero}\t${u.path}\0` : `${u.mode} ${u.oid}\t${u.path}\0`)).join('');
  await git(['update-index', '-z', '--index-info'], { input });
}

/** An index entry with its merge stage ('0' unless conflicted). */
export interface IndexEntry {
  mode: string;
  oid: string;
  stage: string;
}

/** Reads the whole (small) index with `ls-files -s -z`. */
export async function readIndex(git: Git): Promise<Map<string, IndexEntry>> {
  const result = await git(['ls-files', '-s', '-z']);
  const entries = new Map<string, IndexEntry>();
  for (const line of result.stdout.toString('utf8').split('\0')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', oid = '', stage = '0'] = line.slice(0, tab).split(' ');
    const file = line.slice(tab + 1);
    const previous = entries.get(file);
    if (previous === undefined || stage !== '0') entries.set(file, { mode, oid, stage });
  }
  return entries;
}
