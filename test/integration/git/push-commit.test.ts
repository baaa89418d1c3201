import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import http from 'node:http';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { applyPatch } from '../../../src/git/apply-patch/index.js';
import { createMirrorCache } from '../../../src/git/mirror-cache.js';
import { pushCommit } from '../../../src/git/push-commit.js';
import { runGit } from '../../../src/git/run-git.js';
import { isAppError } from '../../../src/errors.js';
import { createBareRepo, makeTempDir, removeDir, showFile, standardFixture, type FixtureRepo } from '../../support/git-fixtures.js';

const logger = pino({ level: 'silent' });
const identity = { name: 'ci-replay', email: 'ci-replay@example.com' };

let root: string;
let upstream: FixtureRepo;
let gitDir: string;
let commitA: string;
let commitB: string;

async function remoteHead(repo: string, branch: string): Promise<string | null> {
  const result = await runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { gitDir: repo, allowFailure: true });
  return result.exitCode === 0 ? result.stdout.toString('utf8').trim() : null;
}

/** Smart-HTTP git server (git http-backend) behind Basic auth with one accepted user/password. */
function startGitHttpServer(projectRoot: string, user: string, password: string): Promise<{ url: string; close: () => Promise<void>; authFailures: () => number }> {
  let failures = 0;
  const expected = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      failures += 1;
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const cgi = spawn('/usr/lib/git-core/git-http-backend', [], {
      env: {
        PATH: '/usr/bin:/bin', GIT_PROJECT_ROOT: projectRoot, GIT_HTTP_EXPORT_ALL: '1', PATH_INFO: url.pathname,
        QUERY_STRING: url.search.slice(1), REQUEST_METHOD: req.method ?? 'GET', CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: user, REMOTE_ADDR: '127.0.0.1', GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
        ...(req.headers['content-encoding'] === undefined ? {} : { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) }),
      },
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (c: Buffer) => chunks.push(c));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf('\r\n\r\n');
      const head = out.subarray(0, split).toString('utf8');
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers).end(out.subarray(split + 4));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(() => done())),
        authFailures: () => failures,
      });
    });
  });
}

beforeAll(async () => {
  root = await makeTempDir();
  upstream = await standardFixture(path.join(root, 'upstream.git'));
  const cache = createMirrorCache({ dataDir: path.join(root, 'data'), logger });
  const shaFail = upstream.shas[1] ?? '';
  gitDir = await cache.ensureCommits({ owner: 'acme', name: 'demo', url: upstream.url }, [shaFail]);
  const make = async (content: string): Promise<string> => {
    const result = await applyPatch({
      gitDir, baseSha: shaFail, patch: '', identity, date: new Date('2024-01-01T00:00:00Z'), message: 'm',
      overrides: [{ path: 'note.txt', content }],
    });
    if (!result.ok) throw new Error(result.message);
    return result.commitSha;
  };
  commitA = await make('a\n');
  commitB = await make('b\n');
});

afterAll(async () => {
  await removeDir(root);
});

describe('pushCommit', () => {
  it('creates a branch, is idempotent for the same SHA, and refuses to move it', async () => {
    const target = await createBareRepo(path.join(root, 'target1.git'));
    await runGit(['fetch', '--quiet', upstream.gitDir, 'refs/heads/main:refs/heads/main'], { gitDir: target });
    const first = await pushCommit({ gitDir, remoteUrl: target, commitSha: commitA, branch: 'ci-replay/run-1/sub-1' });
    expect(first).toEqual({ created: true });
    expect(await remoteHead(target, 'ci-replay/run-1/sub-1')).toBe(commitA);
    expect((await showFile(target, commitA, 'note.txt'))?.toString('utf8')).toBe('a\n');

    const again = await pushCommit({ gitDir, remoteUrl: target, commitSha: commitA, branch: 'ci-replay/run-1/sub-1' });
    expect(again).toEqual({ created: false });

    const moved = await pushCommit({ gitDir, remoteUrl: target, commitSha: commitB, branch: 'ci-replay/run-1/sub-1' }).catch((e: unknown) => e);
    expect(isAppError(moved) && `${moved.kind}/${moved.code}`).toBe('permanent/branch_exists');
    expect(await remoteHead(target, 'ci-replay/run-1/sub-1')).toBe(commitA);
  });

  it('pushes into an empty repository, fetching the partial clone\'s missing blobs offline', async () => {
    const target = await createBareRepo(path.join(root, 'empty.git'));
    await pushCommit({ gitDir, remoteUrl: pathToUrl(target), commitSha: commitB, branch: 'b' });
    expect(await remoteHead(target, 'b')).toBe(commitB);
    const fsck = await runGit(['fsck', '--no-progress', '--connectivity-only'], { gitDir: target, allowFailure: true });
    expect(fsck.exitCode).toBe(0);
    expect((await showFile(target, commitB, 'src/app.py'))?.toString('utf8')).toContain('return a - b');
  });

  it('rejects URLs with userinfo and bad branch names before running git', async () => {
    const withUser = await pushCommit({ gitDir, remoteUrl: 'https://x-access-token:secret@github.com/a/b.git', commitSha: commitA, branch: 'x' }).catch((e: unknown) => e);
    expect(isAppError(withUser) && `${withUser.kind}/${withUser.code}`).toBe('invalid_input/invalid_url');
    for (const branch of ['-x', 'a..b', 'a/.hidden', 'x.lock', 'a b', '']) {
      const bad = await pushCommit({ gitDir, remoteUrl: '/nonexistent', commitSha: commitA, branch }).catch((e: unknown) => e);
      expect(isAppError(bad) && bad.code).toBe('invalid_branch');
    }
  });

  it('fails transiently when the remote cannot be reached', async () => {
    const error = await pushCommit({ gitDir, remoteUrl: path.join(root, 'missing.git'), commitSha: commitA, branch: 'x' }).catch((e: unknown) => e);
    expect(isAppError(error) && `${error.kind}/${error.code}`).toBe('transient/push_failed');
  });

  it('authenticates over HTTPS-style smart HTTP through the environment credential helper', async () => {
    const projectRoot = path.join(root, 'http');
    const target = await createBareRepo(path.join(projectRoot, 'bench.git'));
    await runGit(['config', 'http.receivepack', 'true'], { gitDir: target });
    const server = await startGitHttpServer(projectRoot, 'x-access-token', 's3cret-token');
    try {
      const url = `${server.url}/bench.git`;
      const denied = await pushCommit({ gitDir, remoteUrl: url, commitSha: commitA, branch: 'auth', credentials: { username: 'x-access-token', password: 'wrong' } }).catch((e: unknown) => e);
      expect(isAppError(denied) && denied.kind).toBe('transient');
      const ok = await pushCommit({ gitDir, remoteUrl: url, commitSha: commitA, branch: 'auth', credentials: { username: 'x-access-token', password: 's3cret-token' } });
      expect(ok).toEqual({ created: true });
      expect(await remoteHead(target, 'auth')).toBe(commitA);
      expect(server.authFailures()).toBeGreaterThan(0);
      const config = (await runGit(['config', '--list', '--local'], { gitDir })).stdout.toString('utf8');
      expect(config).not.toContain('s3cret');
    } finally {
      await server.close();
    }
  });
});

function pathToUrl(p: string): string {
  return `file://${p}`;
}
