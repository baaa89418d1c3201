import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createMirrorCache } from '../../../src/git/mirror-cache.js';
import { findMissingObjects } from '../../../src/git/objects.js';
import { listFilesAt, readFileAt } from '../../../src/git/read-files.js';
import { acquireFileLock } from '../../../src/git/repo-lock.js';
import { runGit } from '../../../src/git/run-git.js';
import { isAppError } from '../../../src/errors.js';
import { appendCommits, createBareRepo, FIXTURE_WORKFLOW, makeTempDir, removeDir, showFile, standardFixture, type FixtureRepo } from '../../support/git-fixtures.js';
import { prepare } from './prepare-worker.js';

const logger = pino({ level: 'silent' });
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');

let root: string;
let upstream: FixtureRepo;

async function objectTypes(gitDir: string): Promise<string[]> {
  const result = await runGit(['cat-file', '--batch-all-objects', '--batch-check=%(objecttype)'], { gitDir });
  return result.stdout.toString('utf8').trim().split('\n');
}

beforeAll(async () => {
  root = await makeTempDir();
  upstream = await standardFixture(path.join(root, 'upstream.git'));
});

afterAll(async () => {
  await removeDir(root);
});

describe('mirror cache', () => {
  it('makes a bare blobless partial clone and fetches later commits on demand', async () => {
    const cache = createMirrorCache({ dataDir: path.join(root, 'd1'), logger });
    const repo = { owner: 'acme', name: 'demo', url: upstream.gitDir };
    const gitDir = await cache.ensureCommits(repo, [upstream.shas[1] ?? '']);
    expect(gitDir).toMatch(new RegExp(`^${path.join(root, 'd1', 'mirrors')}/acme--demo--[0-9a-f]{12}\\.git$`));
    expect((await runGit(['config', 'remote.origin.promisor'], { gitDir })).stdout.toString('utf8').trim()).toBe('true');
    expect((await runGit(['rev-parse', '--is-bare-repository'], { gitDir })).stdout.toString('utf8').trim()).toBe('true');
    expect(await objectTypes(gitDir)).not.toContain('blob');

    const [later = ''] = await appendCommits(upstream.gitDir, [{ files: { 'later.txt': 'later\n' } }], 'feature', upstream.shas[1]);
    expect(await findMissingObjects(gitDir, [later, upstream.shas[1] ?? ''])).toEqual([later]);
    await cache.ensureCommits(repo, [upstream.shas[1] ?? '', later]);
    expect(await findMissingObjects(gitDir, [later])).toEqual([]);
    expect(await objectTypes(gitDir)).not.toContain('blob');

    expect((await readFileAt(gitDir, later, 'later.txt'))?.toString('utf8')).toBe('later\n');
    expect((await readFileAt(gitDir, later, '.github/workflows/ci.yml'))?.toString('utf8')).toBe(FIXTURE_WORKFLOW);
    expect(await readFileAt(gitDir, later, 'nope.txt')).toBeNull();
    const workflows = await listFilesAt(gitDir, later, '.github/workflows/');
    expect(workflows.map((f) => f.path)).toEqual(['.github/workflows/ci.yml', '.github/workflows/lint.yml']);
    expect((await listFilesAt(gitDir, later, 'scripts')).map((f) => f.mode)).toEqual(['100755']);
  });

  it('classifies failures: unknown commit is permanent, unreachable upstream transient, bad input invalid', async () => {
    const cache = createMirrorCache({ dataDir: path.join(root, 'd2'), logger });
    const repo = { owner: 'acme', name: 'demo', url: upstream.url };
    const unknown = await cache.ensureCommits(repo, ['0123456789abcdef0123456789abcdef01234567']).catch((e: unknown) => e);
    expect(isAppError(unknown) && `${unknown.kind}/${unknown.code}`).toBe('permanent/commit_not_found');

    const gone = await cache.ensureCommits({ owner: 'acme', name: 'gone', url: path.join(root, 'nowhere.git') }, [upstream.shas[1] ?? '']).catch((e: unknown) => e);
    expect(isAppError(gone) && `${gone.kind}/${gone.code}`).toBe('transient/fetch_failed');

    const cases: [Parameters<typeof cache.ensureCommits>[0], string[], string][] = [
      [{ owner: '../x', name: 'demo', url: upstream.url }, [], 'invalid_repository'],
      [{ owner: 'a', name: 'demo', url: 'https://user:token@github.com/a/demo.git' }, [], 'invalid_url'],
      [{ owner: 'a', name: 'demo', url: 'relative/path' }, [], 'invalid_url'],
      [{ owner: 'a', name: 'demo', url: upstream.url }, ['HEAD'], 'invalid_sha'],
    ];
    for (const [badRepo, shas, code] of cases) {
      const error = await cache.ensureCommits(badRepo, shas).catch((e: unknown) => e);
      expect(isAppError(error) && `${error.kind}/${error.code}`).toBe(`invalid_input/${code}`);
    }
  });

  it('holds an exclusive file lock across holders', async () => {
    const lockFile = path.join(root, 'x.lock');
    const release = await acquireFileLock(lockFile, 5000);
    const blocked = await acquireFileLock(lockFile, 1000).catch((e: unknown) => e);
    expect(isAppError(blocked) && `${blocked.kind}/${blocked.code}`).toBe('transient/lock_timeout');
    await release();
    const again = await acquireFileLock(lockFile, 1000);
    await again();
  });

  it('serves concurrent prepares from several processes and workers without corrupting the cache', async () => {
    const dataDir = path.join(root, 'd3');
    const target = await createBareRepo(path.join(root, 'concurrent-target.git'));
    await runGit(['fetch', '--quiet', upstream.gitDir, 'refs/heads/main:refs/heads/main'], { gitDir: target });
    const shaFail = upstream.shas[1] ?? '';
    const run = promisify(execFile);
    const processes = ['p1', 'p2', 'p3'].map((index) => run(process.execPath,
      ['--import', 'tsx', path.join(here, 'prepare-worker.ts'), dataDir, upstream.url, shaFail, target, index],
      { cwd: repoRoot }).then(({ stdout }) => JSON.parse(stdout) as { index: string; commitSha: string }));
    const inProcess = ['i1', 'i2', 'i3'].map((index) => prepare({ dataDir, url: upstream.url, shaFail, target, index }));
    const results = await Promise.all([...processes, ...inProcess]);
    expect(results.map((r) => r.index).sort()).toEqual(['i1', 'i2', 'i3', 'p1', 'p2', 'p3']);
    for (const result of results) {
      expect((await showFile(target, result.commitSha, 'worker.txt'))?.toString('utf8')).toBe(`${result.index}\n`);
      const head = await runGit(['rev-parse', `refs/heads/w-${result.index}`], { gitDir: target });
      expect(head.stdout.toString('utf8').trim()).toBe(result.commitSha);
    }
    const mirrors = await readdir(path.join(dataDir, 'mirrors'));
    expect(mirrors.map((entry) => entry.replace(/--[0-9a-f]{12}\./, '.')).sort()).toEqual(['acme--demo.git', 'acme--demo.lock']);
    const gitDir = path.join(dataDir, 'mirrors', mirrors.find((entry) => entry.endsWith('.git')) ?? '');
    const fsck = await runGit(['fsck', '--no-progress', '--connectivity-only'], { gitDir, allowFailure: true });
    expect(fsck.exitCode).toBe(0);
  });
});
