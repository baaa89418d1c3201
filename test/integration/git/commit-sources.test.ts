import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMirrorCache } from '../../../src/git/mirror-cache.js';
import { forkUrlOf } from '../../../src/git/commit-sources.js';
import { describeCommand, stripCredentials } from '../../../src/git/git-error.js';
import { fetchObjects, findMissingObjects } from '../../../src/git/objects.js';
import { readFileAt } from '../../../src/git/read-files.js';
import { runGit } from '../../../src/git/run-git.js';
import { isAppError } from '../../../src/errors.js';
import { appendCommits, createBareRepo, createFixtureRepo, makeTempDir, removeDir } from '../../support/git-fixtures.js';

const logger = pino({ level: 'silent' });
/** A server that serves advertised refs only (protocol v0, no SHA wants): what a fetch by SHA cannot get through. */
const STRICT_UPLOAD_PACK = 'env -u GIT_PROTOCOL git -c uploadpack.allowFilter=true upload-pack';

let root: string;
let upstreamDir: string;
const sha = { main: '', branch: '', prInner: '', prTip: '', fork: '', gone: '' };

beforeAll(async () => {
  root = await makeTempDir('ci-replay-sources-');
  upstreamDir = path.join(root, 'srv', 'acme', 'demo.git');
  const upstream = await createFixtureRepo(upstreamDir, [{ files: { 'a.txt': 'a\n' } }, { files: { 'a.txt': 'a2\n' } }]);
  sha.main = upstream.shas[1] ?? '';
  // A pull request of two commits: sha_fail is often the first one, which no ref's tip names.
  [sha.prInner = '', sha.prTip = ''] = await appendCommits(upstreamDir, [{ files: { 'pr.txt': 'one\n' } }, { files: { 'pr.txt': 'two\n' } }], 'pr-7', sha.main);
  await runGit(['update-ref', 'refs/pull/7/head', sha.prTip], { gitDir: upstreamDir });
  await runGit(['update-ref', '-d', 'refs/heads/pr-7'], { gitDir: upstreamDir });
  // The fork: the upstream's history plus a commit (with a blob) only it has.
  const forkDir = path.join(root, 'srv', 'forky', 'demo.git');
  await createBareRepo(forkDir);
  await runGit(['fetch', '--quiet', upstreamDir, 'refs/heads/main:refs/heads/main'], { gitDir: forkDir });
  [sha.fork = ''] = await appendCommits(forkDir, [{ files: { 'fork-only.txt': 'from the fork\n', 'fork-two.txt': 'also the fork\n' } }], 'fix', sha.main);
  // A commit nobody serves.
  const elsewhere = await createFixtureRepo(path.join(root, 'elsewhere.git'), [{ files: { 'x.txt': 'x\n' } }]);
  sha.gone = elsewhere.shas[0] ?? '';
});

afterAll(async () => {
  await removeDir(root);
});

describe('commit sources', () => {
  it('finds a commit on a branch (clone, then the mirror), a later branch commit by the normal fetch, a fork-only commit on the fork', async () => {
    const cache = createMirrorCache({ dataDir: path.join(root, 'd1'), logger });
    const repo = { owner: 'acme', name: 'demo', url: upstreamDir, forkOwners: ['forky'] };
    const first = await cache.locateCommits(repo, [sha.main]);
    expect(first.found.map((f) => f.source)).toEqual(['branch']);
    expect((await cache.locateCommits(repo, [sha.main])).found.map((f) => f.source)).toEqual(['mirror']);

    const [later = ''] = await appendCommits(upstreamDir, [{ files: { 'later.txt': 'later\n' } }], 'feature', sha.main);
    const again = await cache.locateCommits(repo, [sha.main, later]);
    expect(again.found.map((f) => [f.source, f.ref])).toEqual([['mirror', null], ['branch', 'refs/heads/feature']]);

    const fork = await cache.locateCommits(repo, [sha.fork]);
    expect(fork.missing).toEqual([]);
    expect(fork.found[0]).toMatchObject({ sha: sha.fork, source: 'fork', url: pathToFileURL(path.join(root, 'srv', 'forky', 'demo.git')).href });
    // Its blob exists only on the fork: the lazy fetch finds it there (the fork is a promisor remote too).
    expect((await readFileAt(first.gitDir, sha.fork, 'fork-only.txt'))?.toString('utf8')).toBe('from the fork\n');
    // And the explicit blob fetch of the patch engine (apply-patch) tries the fork after the upstream.
    const blob = (await runGit(['rev-parse', `${sha.fork}:fork-two.txt`], { gitDir: first.gitDir })).stdout.toString('utf8').trim();
    expect(await findMissingObjects(first.gitDir, [blob])).toEqual([blob]);
    await fetchObjects(first.gitDir, [blob]);
    expect(await findMissingObjects(first.gitDir, [blob])).toEqual([]);
  });

  it('finds a commit inside a pull request on refs/pull/*/head when the server refuses fetches by SHA, and by SHA when it serves them', async () => {
    const strict = createMirrorCache({ dataDir: path.join(root, 'd2'), logger, localUploadPack: STRICT_UPLOAD_PACK });
    const repo = { owner: 'acme', name: 'demo', url: upstreamDir };
    const located = await strict.locateCommits(repo, [sha.prInner]);
    expect(located.found).toEqual([{ sha: sha.prInner, source: 'pull_ref', ref: 'refs/pull/7/head', url: pathToFileURL(upstreamDir).href }]);

    const lenient = createMirrorCache({ dataDir: path.join(root, 'd3'), logger });
    expect((await lenient.locateCommits(repo, [sha.prInner])).found.map((f) => f.source)).toEqual(['sha']);
  });

  it('reports a commit no source has, with what was tried; ensureCommits throws commit_not_found saying so', async () => {
    const cache = createMirrorCache({ dataDir: path.join(root, 'd4'), logger, localUploadPack: STRICT_UPLOAD_PACK });
    const repo = { owner: 'acme', name: 'demo', url: upstreamDir, forkOwners: ['forky', 'nobody'] };
    const located = await cache.locateCommits(repo, [sha.main, sha.gone]);
    expect(located.found.map((f) => f.sha)).toEqual([sha.main]);
    expect(located.missing).toHaveLength(1);
    const tried = located.missing[0]?.tried.join('\n') ?? '';
    expect(tried).toContain('a fetch by SHA');
    expect(tried).toContain('refs/pull/*/head');
    expect(tried).toContain('forky/demo.git');
    expect(tried).toMatch(/nobody\/demo\.git \(unreachable: .*does not appear to be a git repository/);
    const error = await cache.ensureCommits(repo, [sha.gone]).catch((e: unknown) => e);
    expect(isAppError(error) && `${error.kind}/${error.code}`).toBe('permanent/commit_not_found');
    expect((error as Error).message).toContain(sha.gone);
    expect((error as Error).message).toContain('the fork');
  });

  it('keys mirrors by URL: a changed upstream URL gets its own mirror and finds commits only the new upstream has', async () => {
    const moved = path.join(root, 'srv', 'acme-new', 'demo.git');
    await runGit(['clone', '--quiet', '--bare', upstreamDir, moved]);
    const [onlyNew = ''] = await appendCommits(moved, [{ files: { 'new.txt': 'new\n' } }], 'main');
    const cache = createMirrorCache({ dataDir: path.join(root, 'd5'), logger });
    const oldDir = await cache.ensureCommits({ owner: 'acme', name: 'demo', url: upstreamDir }, [sha.main]);
    const oldMissing = await cache.locateCommits({ owner: 'acme', name: 'demo', url: upstreamDir }, [onlyNew]);
    expect(oldMissing.missing.map((m) => m.sha)).toEqual([onlyNew]);
    const newDir = await cache.ensureCommits({ owner: 'acme', name: 'demo', url: moved }, [onlyNew]);
    expect(newDir).not.toBe(oldDir);
    expect(cache.gitDirOf({ owner: 'acme', name: 'demo', url: moved })).toBe(newDir);
    expect((await runGit(['config', 'remote.origin.url'], { gitDir: newDir })).stdout.toString('utf8').trim()).toBe(pathToFileURL(moved).href);
  });

  it('says which URL, which command and what git said when the upstream cannot be reached; no mirror is left behind', async () => {
    const dataDir = path.join(root, 'd6');
    const cache = createMirrorCache({ dataDir, logger });
    const nowhere = path.join(root, 'srv', 'acme', 'missing.git');
    const error = await cache.ensureCommits({ owner: 'acme', name: 'missing', url: nowhere }, [sha.main]).catch((e: unknown) => e);
    expect(isAppError(error) && `${error.kind}/${error.code}`).toBe('transient/fetch_failed');
    const message = (error as Error).message;
    expect(message).toContain(`git clone of ${pathToFileURL(nowhere).href} failed`);
    expect(message).toContain('does not appear to be a git repository');
    expect(message).toMatch(/command: git clone --bare .* -- file:\/\//);
    expect((error as { details: { stderr: string } }).details.stderr).toContain('fatal:');
    expect((await readdir(path.join(dataDir, 'mirrors'))).filter((entry) => entry.endsWith('.git') || entry.startsWith('.tmp-'))).toEqual([]);

    const empty = await createBareRepo(path.join(root, 'srv', 'acme', 'empty.git'));
    const emptyError = await cache.ensureCommits({ owner: 'acme', name: 'empty', url: empty }, [sha.main]).catch((e: unknown) => e);
    expect(isAppError(emptyError) && `${emptyError.kind}/${emptyError.code}`).toBe('permanent/empty_upstream');
    expect((await readdir(path.join(dataDir, 'mirrors'))).filter((entry) => entry.endsWith('.git') || entry.startsWith('.tmp-'))).toEqual([]);
  });

  it('re-clones a mirror left without refs instead of failing later in a lazy fetch', async () => {
    const cache = createMirrorCache({ dataDir: path.join(root, 'd7'), logger });
    const repo = { owner: 'acme', name: 'demo', url: upstreamDir };
    const gitDir = cache.gitDirOf(repo);
    await createBareRepo(gitDir);
    expect((await cache.locateCommits(repo, [sha.main])).found.map((f) => f.source)).toEqual(['branch']);
  });

  it('strips credentials from URLs in messages and derives fork URLs', () => {
    expect(stripCredentials('fatal: unable to access https://x-access-token:ghs_secret@github.com/a/b.git/')).toBe('fatal: unable to access https://github.com/a/b.git/');
    expect(describeCommand(['fetch', 'https://u:p@h/x.git', 'a b'])).toBe("git fetch https://h/x.git 'a b'");
    expect(forkUrlOf('https://github.com/acme/demo.git', 'acme', 'forky')).toBe('https://github.com/forky/demo.git');
    expect(forkUrlOf('file:///srv/Acme/demo', 'acme', 'forky')).toBe('file:///srv/forky/demo');
    expect(forkUrlOf('https://example.com/mirror/demo.git', 'acme', 'forky')).toBeNull();
  });
});
