import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors.js';
import type { runGit, RunGitOptions } from '../run-git.js';

type Git = (args: readonly string[], extra?: RunGitOptions) => ReturnType<typeof runGit>;

/** Final state of a path: a blob/link/submodule entry, or null when absent. */
export type PathState = { mode: string; oid: string } | null;

/** Raised when a path would be both a file and a directory. */
export class TreeConflictError extends Error {}

interface Entry {
  mode: string;
  oid: Buffer;
}

const TREE_MODE = '40000';

/**
 * Builds the tree `baseTree` with `changes` applied, touching only the directories on the changed
 * paths: their base contents are read with one `cat-file --batch`, the new trees are serialized and
 * hashed here (SHA-1 repositories), written with one `hash-object -t tree -w` (which also checks
 * their format) and the SHA git reports is checked against ours. Cost grows with the change, not
 * with the repository. Directories left empty disappear, as in git.
 */
export async function editTree(git: Git, workDir: string, baseTree: string, changes: ReadonlyMap<string, PathState>): Promise<string> {
  if (changes.size === 0) return baseTree;
  const dirs = new Set<string>(['']);
  for (const file of changes.keys()) {
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i += 1) dirs.add(parts.slice(0, i).join('/'));
  }
  const ordered = [...dirs].sort((a, b) => depth(b) - depth(a) || (a < b ? -1 : 1));
  const contents = await readTrees(git, baseTree, ordered);

  const filesByDir = new Map<string, [string, PathState][]>();
  for (const [file, state] of changes) {
    const list = filesByDir.get(parentOf(file)) ?? [];
    list.push([file, state]);
    filesByDir.set(parentOf(file), list);
  }
  const childrenByDir = new Map<string, string[]>();
  for (const dir of ordered) {
    if (dir === '') continue;
    childrenByDir.set(parentOf(dir), [...(childrenByDir.get(parentOf(dir)) ?? []), dir]);
  }
  const built = new Map<string, Buffer | null>();
  const written: { oid: string; content: Buffer }[] = [];
  for (const dir of ordered) {
    const entries = contents.get(dir) ?? new Map<string, Entry>();
    const prefix = dir === '' ? '' : `${dir}/`;
    for (const [file, state] of filesByDir.get(dir) ?? []) {
      const name = file.slice(prefix.length);
      if (state === null) {
        if (entries.get(name)?.mode !== TREE_MODE) entries.delete(name);
      } else {
        if (entries.get(name)?.mode === TREE_MODE && !dirs.has(file)) throw new TreeConflictError(`${file} is a directory`);
        entries.set(name, { mode: normalizeMode(state.mode), oid: Buffer.from(state.oid, 'hex') });
      }
    }
    for (const child of childrenByDir.get(dir) ?? []) {
      const oid = built.get(child);
      if (oid === undefined) continue;
      const name = child.slice(prefix.length);
      const existing = entries.get(name);
      if (oid === null) {
        if (existing?.mode === TREE_MODE) entries.delete(name);
        continue;
      }
      if (existing !== undefined && existing.mode !== TREE_MODE) throw new TreeConflictError(`${child} is both a file and a directory`);
      entries.set(name, { mode: TREE_MODE, oid });
    }
    if (entries.size === 0 && dir !== '') {
      built.set(dir, null);
      continue;
    }
    const content = serialize(entries);
    const oid = createHash('sha1').update(`tree ${content.length}\0`).update(content).digest();
    written.push({ oid: oid.toString('hex'), content });
    built.set(dir, oid);
  }
  await writeTrees(git, workDir, written);
  const root = built.get('');
  if (root === undefined || root === null) throw new AppError('permanent', 'root tree missing', { code: 'tree_build_failed' });
  return root.toString('hex');
}

async function readTrees(git: Git, baseTree: string, dirs: readonly string[]): Promise<Map<string, Map<string, Entry>>> {
  const input = dirs.map((dir) => (dir === '' ? baseTree : `${baseTree}:${dir}`)).join('\n');
  const out = (await git(['cat-file', '--batch'], { input: `${input}\n` })).stdout;
  const result = new Map<string, Map<string, Entry>>();
  let offset = 0;
  for (const dir of dirs) {
    const newline = out.indexOf(0x0a, offset);
    const header = out.subarray(offset, newline).toString('utf8');
    offset = newline + 1;
    if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
      result.set(dir, new Map());
      continue;
    }
    const [, type = '', size = '0'] = header.split(' ');
    const body = out.subarray(offset, offset + Number(size));
    offset += Number(size) + 1;
    result.set(dir, type === 'tree' ? parseTree(body) : new Map());
  }
  return result;
}

function parseTree(body: Buffer): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  let i = 0;
  while (i < body.length) {
    const space = body.indexOf(0x20, i);
    const nul = body.indexOf(0x00, space);
    const mode = body.subarray(i, space).toString('utf8');
    const name = body.subarray(space + 1, nul).toString('utf8');
    entries.set(name, { mode, oid: Buffer.from(body.subarray(nul + 1, nul + 21)) });
    i = nul + 21;
  }
  return entries;
}

/** Git's tree order: byte order of names, a directory compared as if its name ended with '/'. */
function serialize(entries: Map<string, Entry>): Buffer {
  const keyed = [...entries].map(([name, entry]) => ({
    name, entry, key: Buffer.from(entry.mode === TREE_MODE ? `${name}/` : name, 'utf8'),
  }));
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  return Buffer.concat(keyed.flatMap(({ name, entry }) => [Buffer.from(`${entry.mode} ${name}\0`, 'utf8'), entry.oid]));
}

async function writeTrees(git: Git, workDir: string, trees: readonly { oid: string; content: Buffer }[]): Promise<void> {
  const files = await Promise.all(trees.map(async (tree, index) => {
    const file = path.join(workDir, `tree-${index}`);
    await writeFile(file, tree.content);
    return file;
  }));
  const out = (await git(['hash-object', '-t', 'tree', '-w', '--stdin-paths'], { input: `${files.join('\n')}\n` })).stdout.toString('utf8');
  const oids = out.trim().split('\n');
  trees.forEach((tree, index) => {
    if (oids[index] !== tree.oid) {
      throw new AppError('permanent', 'tree hash mismatch', { code: 'tree_build_failed', details: { expected: tree.oid, got: oids[index] } });
    }
  });
}

function normalizeMode(mode: string): string {
  return mode === '100664' ? '100644' : mode;
}

const depth = (dir: string): number => (dir === '' ? 0 : dir.split('/').length);

function parentOf(dir: string): string {
  const slash = dir.lastIndexOf('/');
  return slash < 0 ? '' : dir.slice(0, slash);
}
