import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { invalidInput, permanent } from '../../errors.js';
import { fetchObjects, findMissingObjects } from '../objects.js';
import { runGit, text, type RunGitOptions } from '../run-git.js';
import { assertCommitSha } from '../validate.js';
import { diffTrees, type TreeChange } from './diff-trees.js';
import { editTree, TreeConflictError, type PathState } from './edit-tree.js';
import { applyToFullIndex, applyToSmallIndex } from './apply-to-index.js';
import { lsTree, type TreeEntry } from './index-ops.js';
import { patchPaths } from './patch-paths.js';

export type { TreeChange } from './diff-trees.js';

/** A file written (content) or deleted (null) after the patch; standardization always wins. */
export interface FileOverride {
  path: string;
  content: string | Buffer | null;
  /** File mode for written content (default `100644`). */
  mode?: '100644' | '100755';
}

/** Author and committer of benchmark commits. */
export interface CommitIdentity {
  name: string;
  email: string;
}

/** Input of {@link applyPatch}. */
export interface ApplyPatchOptions {
  /** Mirror git directory holding `baseSha` (see MirrorCache.ensureCommits). */
  gitDir: string;
  /** The commit the patch applies to (sha_fail), full 40-hex. */
  baseSha: string;
  /** A unified diff as produced by `git diff` (binary diffs included); empty means "no change". */
  patch: string | Buffer;
  /** Globs (picomatch, dotfiles matched) whose changes by the patch are reverted to the base. */
  protectedPaths?: readonly string[];
  /** Exact paths whose changes by the patch are reverted to the base, like protected globs (decided by the caller). */
  revertPaths?: readonly string[];
  /** Files installed after the patch and the protected-path revert. */
  overrides?: readonly FileOverride[];
  identity: CommitIdentity;
  /** Author and committer date; same inputs and date give the same commit SHA. */
  date: Date;
  message: string;
  gitBinary?: string;
  /** Time limit per git process. */
  timeoutMs?: number;
}

/** Outcome of {@link applyPatch}. */
export type ApplyResult =
  | {
    ok: true;
    commitSha: string;
    treeSha: string;
    /** Paths changed by the commit against the base (rename detection on). */
    changes: TreeChange[];
    /** Paths the patch changed under protected globs or in `revertPaths`, restored to the base. */
    revertedFiles: string[];
    /** Override paths the patch also changed (the override won). */
    overriddenPatchedPaths: string[];
  }
  | { ok: false; reason: 'patch_failed'; message: string };

/**
 * Turns (base commit, patch) into a commit without a working tree: the base tree is read into a
 * temporary index, `git apply --cached --3way` applies the patch, protected paths are restored,
 * overrides are written, and `commit-tree` creates the commit with a fixed identity and date.
 * Blobs the patch needs are fetched from the promisor remote in one batch first.
 * Nothing is pushed; a patch that does not apply (or conflicts) yields `{ ok: false }` with git's stderr.
 * Safe to run concurrently on the same mirror (objects are written atomically; the index is private).
 */
export async function applyPatch(options: ApplyPatchOptions): Promise<ApplyResult> {
  assertCommitSha(options.baseSha);
  assertIdentity(options.identity);
  if (Number.isNaN(options.date.getTime())) throw invalidInput('invalid_date', 'commit date is not a valid date');
  const workDir = await mkdtemp(path.join(tmpdir(), 'ci-replay-apply-'));
  const git = (args: readonly string[], extra: RunGitOptions = {}): ReturnType<typeof runGit> => runGit(args, {
    gitDir: options.gitDir,
    gitBinary: options.gitBinary,
    timeoutMs: options.timeoutMs,
    ...extra,
    env: { GIT_INDEX_FILE: path.join(workDir, 'index'), GIT_LITERAL_PATHSPECS: '1', ...extra.env },
  });
  try {
    const baseTreeResult = await git(['rev-parse', '--verify', '--quiet', `${options.baseSha}^{tree}`], { allowFailure: true });
    if (baseTreeResult.exitCode !== 0) throw permanent('base_missing', `base commit ${options.baseSha} is not in the mirror`);
    const baseTree = text(baseTreeResult);

    // The patch's own changes, as final path states: path -> entry, or null when deleted.
    const patchStates = new Map<string, PathState>();
    const baseStates = new Map<string, TreeEntry>();
    const patch = Buffer.isBuffer(options.patch) ? options.patch : Buffer.from(options.patch, 'utf8');
    if (patch.toString('utf8').trim() !== '') {
      const patchFile = path.join(workDir, 'patch.diff');
      await writeFile(patchFile, patch);
      const paths = await patchPaths(git, patchFile);
      if (!paths.ok) return { ok: false, reason: 'patch_failed', message: paths.message };
      const named = await lsTree(git, baseTree, paths.paths);
      await prefetchBlobs(options, [...named.values()], paths.preimageOids);
      let applied = await applyToSmallIndex(git, patchFile, paths.paths, named);
      if (!applied.ok) applied = await applyToFullIndex(git, patchFile, path.join(workDir, 'index'), baseTree);
      if (!applied.ok) return { ok: false, reason: 'patch_failed', message: applied.message };
      for (const [file, state] of applied.states) patchStates.set(file, state);
      for (const [file, entry] of applied.base) baseStates.set(file, entry);
    }

    const changedPaths = [...patchStates.keys()];
    const isProtected = picomatch([...(options.protectedPaths ?? [])], { dot: true });
    const revertSet = new Set(options.revertPaths ?? []);
    const revertedFiles = changedPaths.filter((p) => revertSet.has(p) || ((options.protectedPaths ?? []).length > 0 && isProtected(p))).sort();
    const overridePaths = new Set((options.overrides ?? []).map((o) => o.path));
    const overriddenPatchedPaths = changedPaths.filter((p) => overridePaths.has(p)).sort();

    const finalStates = new Map(patchStates);
    for (const file of revertedFiles) {
      const entry = baseStates.get(file);
      finalStates.set(file, entry === undefined ? null : { mode: entry.mode, oid: entry.oid });
    }
    for (const override of options.overrides ?? []) {
      assertRepoPath(override.path);
      if (override.content === null) {
        finalStates.set(override.path, null);
        continue;
      }
      const oid = text(await git(['hash-object', '-w', '--stdin'], { input: override.content }));
      finalStates.set(override.path, { mode: override.mode ?? '100644', oid });
    }
    let treeSha: string;
    try {
      treeSha = await editTree(git, workDir, baseTree, finalStates);
    } catch (error) {
      if (error instanceof TreeConflictError) return { ok: false, reason: 'patch_failed', message: error.message };
      throw error;
    }

    const stamp = `@${Math.floor(options.date.getTime() / 1000)} +0000`;
    const commitSha = text(await git(['commit-tree', treeSha, '-p', options.baseSha, '-F', '-'], {
      input: options.message.endsWith('\n') ? options.message : `${options.message}\n`,
      env: {
        GIT_AUTHOR_NAME: options.identity.name, GIT_AUTHOR_EMAIL: options.identity.email, GIT_AUTHOR_DATE: stamp,
        GIT_COMMITTER_NAME: options.identity.name, GIT_COMMITTER_EMAIL: options.identity.email, GIT_COMMITTER_DATE: stamp,
      },
    }));
    const changes = await diffTrees(git, baseTree, treeSha, true);
    return { ok: true, commitSha, treeSha, changes, revertedFiles, overriddenPatchedPaths };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Fetches, in one round trip, the base blobs of the paths the patch touches and its recorded preimages. */
async function prefetchBlobs(options: ApplyPatchOptions, entries: readonly TreeEntry[], preimages: readonly string[]): Promise<void> {
  const objectOptions = { gitBinary: options.gitBinary, timeoutMs: options.timeoutMs };
  const baseBlobs = entries.filter((e) => e.type === 'blob').map((e) => e.oid);
  const missingBase = await findMissingObjects(options.gitDir, baseBlobs, objectOptions);
  await fetchObjects(options.gitDir, missingBase, objectOptions);
  // Preimages only matter for the 3-way fallback; they may be unknown upstream: best effort.
  const missingPre = await findMissingObjects(options.gitDir, preimages.filter((oid) => !baseBlobs.includes(oid)), objectOptions);
  if (missingPre.length > 0) await fetchObjects(options.gitDir, missingPre, objectOptions).catch(() => undefined);
}

function assertIdentity(identity: CommitIdentity): void {
  const bad = /[<>\n\0]/;
  if (identity.name.trim() === '' || identity.email.trim() === '' || bad.test(identity.name) || bad.test(identity.email)) {
    throw invalidInput('invalid_identity', 'commit identity needs a name and an email without <, > or newlines');
  }
}

function assertRepoPath(file: string): void {
  const parts = file.split('/');
  if (file === '' || file.startsWith('/') || file.includes('\0') || parts.some((p) => p === '' || p === '.' || p === '..' || p === '.git')) {
    throw invalidInput('invalid_path', 'override path must be a relative path inside the repository', { path: file });
  }
}
