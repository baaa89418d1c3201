/**
 * Builders for fixture git repositories with history, written with `git fast-import` (fast, no work tree,
 * deterministic SHAs for the same inputs). Used by the git tests, the local executor and end-to-end tests.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runGit } from '../../src/git/run-git.js';

/** File content in a fixture commit; null deletes the path. */
export type FixtureFile = string | Buffer | null | { content: string | Buffer; mode: '100644' | '100755' | '120000' };

/** One commit of a fixture history, applied on top of the previous one. */
export interface FixtureCommit {
  message?: string;
  /** Files written (or deleted with null) by this commit. */
  files?: Record<string, FixtureFile>;
  /** Renames applied before `files`: from → to. */
  renames?: Record<string, string>;
  /** Commit date (default: 2024-01-01 plus one hour per commit). */
  date?: Date;
}

/** A fixture repository (bare). */
export interface FixtureRepo {
  /** Path of the bare repository. */
  gitDir: string;
  /** file:// URL of it. */
  url: string;
  /** Commit SHAs, in the order of the commits given. */
  shas: string[];
  /** Branch the history was written to. */
  branch: string;
}

/** A typical GitHub Actions workflow for fixtures. */
export const FIXTURE_WORKFLOW = `name: CI
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: python -m pytest -q
`;

/** Bytes that are not text (NUL bytes, high bytes): git treats the file as binary. */
export function binaryContent(seed: number, length = 512): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = i % 7 === 0 ? 0 : (x >>> 16) & 0xff;
  }
  return bytes;
}

/** Creates a temporary directory; remove it with {@link removeDir}. */
export const makeTempDir = (prefix = 'ci-replay-git-'): Promise<string> => mkdtemp(path.join(tmpdir(), prefix));

export const removeDir = (dir: string): Promise<void> => rm(dir, { recursive: true, force: true });

/** Creates an empty bare repository at `dir` (e.g. a push target). */
export async function createBareRepo(dir: string, branch = 'main'): Promise<string> {
  await runGit(['init', '--quiet', '--bare', `--initial-branch=${branch}`, dir]);
  return dir;
}

/**
 * Creates a bare repository at `dir` with `commits` written on `branch` (or appends to an existing one
 * when `dir` already holds that branch).
 */
export async function createFixtureRepo(dir: string, commits: readonly FixtureCommit[], branch = 'main'): Promise<FixtureRepo> {
  await createBareRepo(dir, branch);
  const shas = await appendCommits(dir, commits, branch);
  return { gitDir: dir, url: pathToFileURL(dir).href, shas, branch };
}

/**
 * Appends `commits` to `branch` of the bare repository `gitDir` (a new branch starts at `base` when
 * given); returns their SHAs.
 */
export async function appendCommits(gitDir: string, commits: readonly FixtureCommit[], branch = 'main', base?: string): Promise<string[]> {
  const ref = `refs/heads/${branch}`;
  const head = await runGit(['rev-parse', '--verify', '--quiet', ref], { gitDir, allowFailure: true });
  const parent = head.exitCode === 0 ? head.stdout.toString('utf8').trim() : base;
  const chunks: Buffer[] = [];
  const push = (s: string | Buffer): void => {
    chunks.push(Buffer.isBuffer(s) ? s : Buffer.from(s, 'utf8'));
  };
  commits.forEach((commit, index) => {
    const message = Buffer.from(commit.message ?? `commit ${index + 1}`, 'utf8');
    const seconds = Math.floor((commit.date ?? new Date(Date.UTC(2024, 0, 1) + index * 3_600_000)).getTime() / 1000);
    push(`commit ${ref}\nmark :${index + 1}\n`);
    push(`author Fixture Author <author@example.com> ${seconds} +0000\n`);
    push(`committer Fixture Committer <committer@example.com> ${seconds} +0000\n`);
    push(`data ${message.length}\n`);
    push(message);
    push('\n');
    if (index === 0 && parent !== undefined) push(`from ${parent}\n`);
    for (const [from, to] of Object.entries(commit.renames ?? {})) push(`R ${quote(from)} ${quote(to)}\n`);
    for (const [file, value] of Object.entries(commit.files ?? {})) {
      if (value === null) {
        push(`D ${quote(file)}\n`);
        continue;
      }
      const { content, mode } = typeof value === 'string' || Buffer.isBuffer(value) ? { content: value, mode: '100644' } : value;
      const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
      push(`M ${mode} inline ${quote(file)}\ndata ${bytes.length}\n`);
      push(bytes);
      push('\n');
    }
    push('\n');
  });
  const work = await makeTempDir('ci-replay-fi-');
  try {
    const marks = path.join(work, 'marks');
    await runGit(['fast-import', '--quiet', '--force', `--export-marks=${marks}`], { gitDir, input: Buffer.concat(chunks) });
    const byMark = new Map((await readFile(marks, 'utf8')).trim().split('\n').filter((l) => l !== '').map((line) => {
      const [mark = '', sha = ''] = line.split(' ');
      return [mark, sha] as const;
    }));
    return commits.map((_, index) => byMark.get(`:${index + 1}`) ?? '');
  } finally {
    await removeDir(work);
  }
}

/** `git diff --binary --full-index from to` in `gitDir`: a patch `git apply` accepts, binary files included. */
export async function makePatch(gitDir: string, from: string, to: string, options: { renames?: boolean } = {}): Promise<string> {
  const result = await runGit(['diff', '--binary', '--full-index', options.renames === false ? '--no-renames' : '-M', from, to], { gitDir });
  return result.stdout.toString('utf8');
}

/** Reads a file at a commit of a (complete) fixture repository, or null when absent. */
export async function showFile(gitDir: string, sha: string, file: string): Promise<Buffer | null> {
  const result = await runGit(['cat-file', 'blob', `${sha}:${file}`], { gitDir, allowFailure: true });
  return result.exitCode === 0 ? result.stdout : null;
}

/**
 * A small Python project: README, src/app.py, tests, a CI workflow and a lint workflow, a binary
 * asset and an executable script; the second commit (the "failing" one) introduces a bug.
 * shas[0] = initial, shas[1] = sha_fail.
 */
export function standardFixture(dir: string): Promise<FixtureRepo> {
  return createFixtureRepo(dir, [
    {
      message: 'initial',
      files: {
        'README.md': '# demo\n',
        'src/app.py': 'def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n',
        'tests/test_app.py': 'from src.app import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
        '.github/workflows/ci.yml': FIXTURE_WORKFLOW,
        '.github/workflows/lint.yml': 'name: Lint\non: push\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: flake8\n',
        'assets/logo.bin': binaryContent(1),
        'scripts/run.sh': { content: '#!/bin/sh\necho run\n', mode: '100755' },
      },
    },
    {
      message: 'break add',
      files: { 'src/app.py': 'def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n' },
    },
  ]);
}

function quote(file: string): string {
  return `"${file.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
