import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import path from 'node:path';
import { createMirrorCache } from '../../../src/git/mirror-cache.js';
import { listFilesAt, readFileAt, readFilesAt } from '../../../src/git/read-files.js';
import { runGit } from '../../../src/git/run-git.js';
import { isAppError } from '../../../src/errors.js';
import { appendCommits, binaryContent, makeTempDir, removeDir, standardFixture, type FixtureRepo } from '../../support/git-fixtures.js';

const logger = pino({ level: 'silent' });

let root: string;
let upstream: FixtureRepo;
let gitDir: string;
let sha: string;

beforeAll(async () => {
  root = await makeTempDir();
  upstream = await standardFixture(path.join(root, 'upstream.git'));
  // A third workflow, a nested file, a binary and a symlink under .github/workflows, on top of the fixture's sha_fail.
  [sha = ''] = await appendCommits(upstream.gitDir, [{
    files: {
      '.github/workflows/release.yaml': 'name: Release\non: push\njobs: {}\n',
      '.github/workflows/nested/helper.yml': 'name: Helper\non: workflow_call\njobs: {}\n',
      '.github/workflows/blob.bin': binaryContent(7, 300),
      '.github/workflows/link.yml': { content: 'release.yaml', mode: '120000' },
    },
  }], 'read-files', upstream.shas[1]);
  await runGit(['repack', '-adq', '--write-bitmap-index'], { gitDir: upstream.gitDir });
  // A partial clone (blob:none): the batch read fetches the blobs lazily, as readFileAt does.
  const cache = createMirrorCache({ dataDir: path.join(root, 'data'), logger });
  gitDir = await cache.ensureCommits({ owner: 'acme', name: 'read-files', url: upstream.gitDir }, [sha]);
});

afterAll(async () => {
  await removeDir(root);
});

describe('readFilesAt', () => {
  it('reads every file under a directory in one batch, byte for byte what readFileAt reads', async () => {
    const files = await readFilesAt(gitDir, sha, '.github/workflows');
    const listed = await listFilesAt(gitDir, sha, '.github/workflows');
    expect(files.map((file) => file.path)).toEqual(listed.map((file) => file.path));
    expect(files.map((file) => file.path)).toEqual(expect.arrayContaining(['.github/workflows/ci.yml', '.github/workflows/lint.yml', '.github/workflows/nested/helper.yml', '.github/workflows/blob.bin', '.github/workflows/link.yml']));
    for (const file of files) {
      const one = await readFileAt(gitDir, sha, file.path);
      expect(one).not.toBeNull();
      expect(file.bytes.equals(one ?? Buffer.alloc(0))).toBe(true);
    }
    expect(files.find((file) => file.path === '.github/workflows/link.yml')?.bytes.toString('utf8')).toBe('release.yaml');
    expect(files.find((file) => file.path === '.github/workflows/blob.bin')?.bytes.equals(binaryContent(7, 300))).toBe(true);
  });

  it('returns nothing for a directory the commit lacks', async () => {
    expect(await readFilesAt(gitDir, sha, 'no/such/dir')).toEqual([]);
  });

  it('fails as a transient fetch failure when a blob is neither in the mirror nor upstream', async () => {
    const lonely = await makeTempDir();
    try {
      // A repository whose tree names a blob that exists nowhere: the batch answers `missing` for it.
      await runGit(['init', '-q', '--bare', lonely]);
      const blob = (await runGit(['hash-object', '--stdin'], { gitDir: lonely, input: 'never written\n' })).stdout.toString('utf8').trim();
      const tree = (await runGit(['mktree', '--missing'], { gitDir: lonely, input: `100644 blob ${blob}\tgone.yml\n` })).stdout.toString('utf8').trim();
      const dirTree = (await runGit(['mktree'], { gitDir: lonely, input: `040000 tree ${tree}\tworkflows\n` })).stdout.toString('utf8').trim();
      const top = (await runGit(['mktree'], { gitDir: lonely, input: `040000 tree ${dirTree}\t.github\n` })).stdout.toString('utf8').trim();
      const commit = (await runGit(['commit-tree', top, '-m', 'x'], { gitDir: lonely, env: { GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' } })).stdout.toString('utf8').trim();
      const error = await readFilesAt(lonely, commit, '.github/workflows').catch((caught: unknown) => caught);
      expect(isAppError(error) && error.kind === 'transient' && error.code === 'fetch_failed').toBe(true);
    } finally {
      await removeDir(lonely);
    }
  });
});
