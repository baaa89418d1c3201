import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyPatch, type ApplyPatchOptions } from '../../../src/git/apply-patch/index.js';
import { createMirrorCache } from '../../../src/git/mirror-cache.js';
import { readFileAt } from '../../../src/git/read-files.js';
import { runGit } from '../../../src/git/run-git.js';
import { isAppError } from '../../../src/errors.js';
import {
  appendCommits, binaryContent, makePatch, makeTempDir, removeDir, standardFixture, type FixtureRepo,
} from '../../support/git-fixtures.js';

const logger = pino({ level: 'silent' });
const identity = { name: 'ci-replay', email: 'ci-replay@example.com' };
const date = new Date('2024-05-01T12:00:00Z');

let root: string;
let upstream: FixtureRepo;
let gitDir: string;
let shaFail: string;
let branchCounter = 0;

/** Writes `files` as a commit on top of `base` in the upstream and returns `git diff base..commit`. */
async function patchFrom(base: string, commit: Parameters<typeof appendCommits>[1][number], options: { renames?: boolean } = {}): Promise<string> {
  branchCounter += 1;
  const [sha = ''] = await appendCommits(upstream.gitDir, [commit], `scratch-${branchCounter}`, base);
  return makePatch(upstream.gitDir, base, sha, options);
}

function apply(patch: string, extra: Partial<ApplyPatchOptions> = {}): ReturnType<typeof applyPatch> {
  return applyPatch({ gitDir, baseSha: shaFail, patch, identity, date, message: 'ci-replay: candidate', ...extra });
}

async function tree(sha: string, file: string): Promise<string | null> {
  const result = await runGit(['ls-tree', sha, '--', file], { gitDir });
  const line = result.stdout.toString('utf8').trim();
  return line === '' ? null : line;
}

beforeAll(async () => {
  root = await makeTempDir();
  upstream = await standardFixture(path.join(root, 'upstream.git'));
  shaFail = upstream.shas[1] ?? '';
  // Packed with a bitmap, like a real server: explicitly wanted blobs must still be sent.
  await runGit(['repack', '-adq', '--write-bitmap-index'], { gitDir: upstream.gitDir });
  const cache = createMirrorCache({ dataDir: path.join(root, 'data'), logger });
  gitDir = await cache.ensureCommits({ owner: 'acme', name: 'demo', url: upstream.gitDir }, [shaFail]);
});

afterAll(async () => {
  await removeDir(root);
});

describe('applyPatch', () => {
  it('applies a one-file patch into a commit on sha_fail with a deterministic SHA', async () => {
    const patch = await patchFrom(shaFail, { files: { 'src/app.py': 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n' } });
    const first = await apply(patch);
    const second = await apply(patch);
    expect(first.ok).toBe(true);
    expect(second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.commitSha).toBe(first.commitSha);
    expect(first.changes).toEqual([{ status: 'M', path: 'src/app.py' }]);
    const content = await readFileAt(gitDir, first.commitSha, 'src/app.py');
    expect(content?.toString('utf8')).toContain('return a + b');
    const meta = (await runGit(['cat-file', 'commit', first.commitSha], { gitDir })).stdout.toString('utf8');
    expect(meta).toContain(`parent ${shaFail}`);
    expect(meta).toContain(`author ci-replay <ci-replay@example.com> ${date.getTime() / 1000} +0000`);
    expect(meta).toContain(`committer ci-replay <ci-replay@example.com> ${date.getTime() / 1000} +0000`);
    const other = await apply(patch, { date: new Date('2024-05-02T00:00:00Z') });
    expect(other.ok && other.commitSha).not.toBe(first.commitSha);
  });

  it('applies binary modifications and binary additions', async () => {
    const patch = await patchFrom(shaFail, { files: { 'assets/logo.bin': binaryContent(2), 'assets/new.bin': binaryContent(3, 2048) } });
    expect(patch).toContain('GIT binary patch');
    const result = await apply(patch);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect((await readFileAt(gitDir, result.commitSha, 'assets/logo.bin'))?.equals(binaryContent(2))).toBe(true);
    expect((await readFileAt(gitDir, result.commitSha, 'assets/new.bin'))?.equals(binaryContent(3, 2048))).toBe(true);
    expect(result.changes).toEqual([{ status: 'M', path: 'assets/logo.bin' }, { status: 'A', path: 'assets/new.bin' }]);
  });

  it('applies renames, mode changes, deletions and new files', async () => {
    const patch = await patchFrom(shaFail, {
      renames: { 'tests/test_app.py': 'tests/test_math.py' },
      files: {
        'scripts/run.sh': { content: '#!/bin/sh\necho run\n', mode: '100644' },
        'README.md': null,
        'docs/guide.md': 'guide\n',
      },
    });
    expect(patch).toContain('rename from tests/test_app.py');
    expect(patch).toContain('old mode 100755');
    const result = await apply(patch);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    const byPath = Object.fromEntries(result.changes.map((c) => [c.path, c]));
    expect(byPath['tests/test_math.py']).toMatchObject({ status: 'R', oldPath: 'tests/test_app.py', similarity: 100 });
    expect(byPath['README.md']?.status).toBe('D');
    expect(byPath['docs/guide.md']?.status).toBe('A');
    expect(byPath['scripts/run.sh']?.status).toBe('M');
    expect(await tree(result.commitSha, 'scripts/run.sh')).toMatch(/^100644 /);
    expect(await tree(result.commitSha, 'README.md')).toBeNull();
    expect(await tree(result.commitSha, 'tests/test_app.py')).toBeNull();
  });

  it('replaces a file with a directory and back', async () => {
    const patch = await patchFrom(shaFail, { files: { 'scripts/run.sh': null, 'README.md': null, 'scripts/run.sh/inner.txt': 'inner\n', 'README.md/x': 'x\n' } });
    const result = await apply(patch);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect((await readFileAt(gitDir, result.commitSha, 'scripts/run.sh/inner.txt'))?.toString('utf8')).toBe('inner\n');
    expect(await tree(result.commitSha, 'README.md')).toMatch(/^040000 tree /);
    const fsck = await runGit(['fsck', '--connectivity-only', '--no-progress'], { gitDir, allowFailure: true });
    expect(fsck.exitCode).toBe(0);
  });

  it('builds the same tree through the small index as through a full index', async () => {
    const patch = await patchFrom(shaFail, {
      renames: { 'src/app.py': 'lib/app.py' },
      files: { 'assets/logo.bin': binaryContent(9), 'scripts/run.sh': { content: '#!/bin/sh\necho changed\n', mode: '100755' }, 'deep/a/b/c.txt': 'c\n', '.github/workflows/lint.yml': null },
    });
    const result = await apply(patch);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    const work = await makeTempDir();
    try {
      const env = { GIT_INDEX_FILE: path.join(work, 'index') };
      await runGit(['read-tree', shaFail], { gitDir, env });
      await writeFile(path.join(work, 'p.diff'), patch);
      await runGit(['apply', '--cached', path.join(work, 'p.diff')], { gitDir, env });
      const reference = (await runGit(['write-tree'], { gitDir, env })).stdout.toString('utf8').trim();
      expect(result.treeSha).toBe(reference);
    } finally {
      await removeDir(work);
    }
  });

  it('reports a patch that does not apply with git\'s own message', async () => {
    const patch = [
      'diff --git a/src/app.py b/src/app.py',
      '--- a/src/app.py',
      '+++ b/src/app.py',
      '@@ -1,2 +1,2 @@',
      ' def nothing_like_this():',
      '-    return 42',
      '+    return 43',
      '',
    ].join('\n');
    const result = await apply(patch);
    expect(result).toMatchObject({ ok: false, reason: 'patch_failed' });
    expect(!result.ok && result.message).toMatch(/src\/app\.py/);
  });

  it('reports garbage input as patch_failed', async () => {
    const result = await apply('this is not a diff\n');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/No valid patches|error/i);
  });

  it('merges a patch made against an older commit with --3way, fetching its preimage offline', async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    const [older = '', fail = ''] = await appendCommits(upstream.gitDir, [
      { files: { 'data.txt': `${lines.join('\n')}\n` } },
      { files: { 'data.txt': `${lines.map((l, i) => (i === 3 ? 'line 4 changed upstream' : l)).join('\n')}\n` } },
    ], 'three-way', shaFail);
    const patch = await patchFrom(older, { files: { 'data.txt': `${lines.map((l, i) => (i === 5 ? 'line 6 fixed' : l)).join('\n')}\n` } });
    const cache = createMirrorCache({ dataDir: path.join(root, 'data'), logger });
    await cache.ensureCommits({ owner: 'acme', name: 'demo', url: upstream.gitDir }, [fail]);
    const result = await applyPatch({ gitDir, baseSha: fail, patch, identity, date, message: 'm' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const text = (await readFileAt(gitDir, result.commitSha, 'data.txt'))?.toString('utf8') ?? '';
    expect(text).toContain('line 4 changed upstream');
    expect(text).toContain('line 6 fixed');

    const conflicting = await patchFrom(older, { files: { 'data.txt': `${lines.map((l, i) => (i === 3 ? 'line 4 patched' : l)).join('\n')}\n` } });
    const failed = await applyPatch({ gitDir, baseSha: fail, patch: conflicting, identity, date, message: 'm' });
    expect(failed).toMatchObject({ ok: false, reason: 'patch_failed' });
  });

  it('reverts changes under protected paths, including additions and deletions', async () => {
    const patch = await patchFrom(shaFail, {
      files: {
        'src/app.py': 'def add(a, b):\n    return a + b\n',
        'tests/test_app.py': 'def test_add():\n    assert True\n',
        'tests/test_new.py': 'def test_new():\n    pass\n',
        '.github/workflows/lint.yml': null,
      },
    });
    const result = await apply(patch, { protectedPaths: ['tests/**', '.github/**'] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.revertedFiles).toEqual(['.github/workflows/lint.yml', 'tests/test_app.py', 'tests/test_new.py']);
    expect(result.changes).toEqual([{ status: 'M', path: 'src/app.py' }]);
    expect(await tree(result.commitSha, 'tests/test_new.py')).toBeNull();
    expect(await tree(result.commitSha, '.github/workflows/lint.yml')).not.toBeNull();
    expect(await tree(result.commitSha, 'tests/test_app.py')).toBe(await tree(shaFail, 'tests/test_app.py'));
  });

  it('writes overrides after the patch and records overridden patched paths', async () => {
    const patch = await patchFrom(shaFail, {
      files: { '.github/workflows/ci.yml': 'name: hacked\n', 'src/app.py': 'x = 1\n' },
    });
    const standardized = 'name: CI (standardized)\non: push\njobs: {}\n';
    const result = await apply(patch, {
      overrides: [
        { path: '.github/workflows/ci.yml', content: standardized },
        { path: '.github/workflows/lint.yml', content: null },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.overriddenPatchedPaths).toEqual(['.github/workflows/ci.yml']);
    expect((await readFileAt(gitDir, result.commitSha, '.github/workflows/ci.yml'))?.toString('utf8')).toBe(standardized);
    expect(await readFileAt(gitDir, result.commitSha, '.github/workflows/lint.yml')).toBeNull();
    expect(result.changes.map((c) => `${c.status} ${c.path}`).sort()).toEqual([
      'D .github/workflows/lint.yml', 'M .github/workflows/ci.yml', 'M src/app.py',
    ]);
  });

  it('turns an empty patch into a commit with the base tree (baseline submission)', async () => {
    const result = await apply('');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const baseTree = (await runGit(['rev-parse', `${shaFail}^{tree}`], { gitDir })).stdout.toString('utf8').trim();
    expect(result.treeSha).toBe(baseTree);
    expect(result.changes).toEqual([]);
  });

  it('rejects invalid input with typed errors', async () => {
    const error = await apply('', { baseSha: 'HEAD' }).catch((e: unknown) => e);
    expect(isAppError(error) && error.kind).toBe('invalid_input');
    const badPath = await apply('', { overrides: [{ path: '../escape', content: 'x' }] }).catch((e: unknown) => e);
    expect(isAppError(badPath) && badPath.code).toBe('invalid_path');
    const missing = await apply('', { baseSha: 'f'.repeat(40) }).catch((e: unknown) => e);
    expect(isAppError(missing) && missing.code).toBe('base_missing');
  });
});
