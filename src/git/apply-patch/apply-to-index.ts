import { rm } from 'node:fs/promises';
import type { runGit, RunGitOptions } from '../run-git.js';
import type { PathState } from './edit-tree.js';
import { readIndex, updateIndex, type TreeEntry } from './index-ops.js';

type Git = (args: readonly string[], extra?: RunGitOptions) => ReturnType<typeof runGit>;

/** What applying a patch to an index produced: the changed paths' final states, or git's complaint. */
export type IndexApplyResult =
  | { ok: true; states: Map<string, PathState>; base: Map<string, TreeEntry> }
  | { ok: false; message: string };

const APPLY = ['apply', '--cached', '--3way', '--whitespace=nowarn'];

/**
 * Applies the patch to a small index holding only the base entries the patch names. Its cost follows
 * the patch, not the repository.
 */
export async function applyToSmallIndex(git: Git, patchFile: string, paths: readonly string[], base: Map<string, TreeEntry>): Promise<IndexApplyResult> {
  await updateIndex(git, [...base].map(([file, entry]) => ({ path: file, mode: entry.mode, oid: entry.oid })));
  const applied = await git([...APPLY, patchFile], { allowFailure: true });
  if (applied.exitCode !== 0) return { ok: false, message: applied.stderr.trim() };
  const after = await readIndex(git);
  if ([...after.values()].some((entry) => entry.stage !== '0')) return { ok: false, message: `${applied.stderr.trim()}\nconflicts remain`.trim() };
  const states = new Map<string, PathState>();
  for (const file of new Set([...paths, ...base.keys()])) {
    const before = base.get(file);
    const now = after.get(file);
    if (before?.mode === now?.mode && before?.oid === now?.oid) continue;
    states.set(file, now === undefined ? null : { mode: now.mode, oid: now.oid });
  }
  return { ok: true, states, base };
}

/**
 * Applies the patch to an index holding the whole base tree: the reference behaviour, used when the
 * small index was not enough (a path the patch names was missed) and to produce git's own message.
 */
export async function applyToFullIndex(git: Git, patchFile: string, indexFile: string, baseTree: string): Promise<IndexApplyResult> {
  await rm(indexFile, { force: true });
  await git(['read-tree', baseTree]);
  const applied = await git([...APPLY, patchFile], { allowFailure: true });
  if (applied.exitCode !== 0) return { ok: false, message: applied.stderr.trim() };
  const unmerged = await git(['ls-files', '--unmerged']);
  if (unmerged.stdout.length > 0) return { ok: false, message: `${applied.stderr.trim()}\nconflicts remain`.trim() };
  const raw = await git(['diff-index', '--cached', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', baseTree]);
  const fields = raw.stdout.toString('utf8').split('\0');
  const states = new Map<string, PathState>();
  const base = new Map<string, TreeEntry>();
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode = '', newMode = '', oldOid = '', newOid = '', status = ''] = (fields[i] ?? '').slice(1).split(' ');
    const file = fields[i + 1] ?? '';
    if (status !== 'A') base.set(file, { mode: oldMode, type: oldMode === '160000' ? 'commit' : 'blob', oid: oldOid });
    states.set(file, status === 'D' ? null : { mode: newMode, oid: newOid });
  }
  return { ok: true, states, base };
}
