/**
 * Cost of a run's source view (src/executor/source-view.ts: the `origin` steps see, holding only the run's commit
 * and its history): a generated upstream of N commits touching F files (5 files per commit, a tag every 500
 * commits), copied into a benchmark repository that also holds a reference branch and the later upstream history;
 * a candidate commit on the failing commit (N/2 back from the tip) is viewed
 * - without a cache (a full copy of its history, what `git clone --bare --no-local --single-branch` does),
 * - with the cache: the first run of a parent builds its base view, later runs copy only their own commit.
 * Prints milliseconds and the view's size on disk. Run: `npx tsx bench/source-view.ts [commits] [files] [rounds]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSourceView } from '../src/executor/source-view.js';

const commits = Number(process.argv[2] ?? 5000);
const files = Number(process.argv[3] ?? 2000);
const rounds = Number(process.argv[4] ?? 3);
const root = mkdtempSync(join(tmpdir(), 'source-view-bench-'));
const env = { PATH: '/usr/bin:/bin', HOME: root, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@e', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@e' };
const git = (args: string[], input?: Buffer): string => execFileSync('git', args, { env, input, maxBuffer: 1 << 30, encoding: 'utf8' }).trim();

/** A fast-import stream: `commits` commits on main, each changing 5 of `files` files; an annotated tag every 500. */
function history(): Buffer {
  const parts: Buffer[] = [];
  const data = (text: string): Buffer => {
    const body = Buffer.from(text);
    return Buffer.concat([Buffer.from(`data ${body.length}\n`), body, Buffer.from('\n')]);
  };
  const contents = Array.from({ length: files }, (_, i) => Array.from({ length: 40 }, (_, j) => `line ${j} of file ${i}`).join('\n'));
  let seed = 1;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let c = 0; c < commits; c += 1) {
    parts.push(Buffer.from(`commit refs/heads/main\ncommitter b <b@e> ${1_600_000_000 + c * 60} +0000\n`), data(`commit ${c}`));
    const touched = c === 0 ? contents.map((_, i) => i) : Array.from({ length: 5 }, () => next() % files);
    for (const i of touched) {
      if (c > 0) contents[i] += `\nchange ${c}`;
      parts.push(Buffer.from(`M 100644 inline src/mod${Math.floor(i / 100)}/file${i}.py\n`), data(`${contents[i] ?? ''}\n`));
    }
    parts.push(Buffer.from('\n'));
    if (c % 500 === 499) parts.push(Buffer.from(`tag v${Math.floor(c / 500)}\nfrom refs/heads/main\ntagger b <b@e> ${1_600_000_000 + c * 60} +0000\n`), data(`release ${c}`));
  }
  return Buffer.concat(parts);
}

const upstream = join(root, 'upstream.git');
git(['init', '-q', '--bare', upstream]);
git(['--git-dir', upstream, 'fast-import', '--quiet'], history());
git(['--git-dir', upstream, 'gc', '-q']);
const bench = join(root, 'bench.git');
git(['clone', '-q', '--bare', upstream, bench]);
const failing = git(['--git-dir', bench, 'rev-parse', `main~${Math.floor(commits / 2)}`]);
/** A commit on `parent` changing one file (a submission's benchmark commit), on its own branch. */
function submission(branch: string, parent: string, text: string): string {
  const blob = git(['--git-dir', bench, 'hash-object', '-w', '--stdin'], Buffer.from(text));
  const tree = git(['--git-dir', bench, 'mktree'], Buffer.from(`100644 blob ${blob}\tsubmission.txt\n`));
  const sha = git(['--git-dir', bench, 'commit-tree', tree, '-p', parent, '-m', branch]);
  git(['--git-dir', bench, 'update-ref', `refs/heads/${branch}`, sha]);
  return sha;
}
submission('ci-replay/reference/1', failing, 'ground truth\n');
const candidates = Array.from({ length: rounds + 1 }, (_, i) => submission(`ci-replay/candidate/${i}`, failing, `candidate ${i}\n`));
const size = (dir: string): string => execFileSync('du', ['-sh', dir], { encoding: 'utf8' }).split('\t')[0] ?? '?';
const packed = size(bench);

async function timed(label: string, index: number, cacheDir?: string): Promise<void> {
  const dir = join(root, `view-${label}-${index}`);
  const start = performance.now();
  await createSourceView({ source: bench, sha: candidates[index] ?? '', ref: `refs/heads/ci-replay/candidate/${index}`, dir, ...(cacheDir === undefined ? {} : { cacheDir }) });
  const ms = performance.now() - start;
  console.log(`${label.padEnd(28)} ${ms.toFixed(0).padStart(6)} ms  view ${size(dir)}`);
  rmSync(dir, { recursive: true, force: true });
}

try {
  console.log(`upstream: ${commits} commits, ${files} files (${packed} packed); view of a candidate on commit ${commits - Math.floor(commits / 2)}`);
  for (let i = 0; i < rounds; i += 1) await timed('full copy (no cache)', i);
  const cacheDir = join(root, 'views');
  await timed('cache: first run (base)', rounds, cacheDir);
  for (let i = 0; i < rounds; i += 1) await timed('cache: later runs', i, cacheDir);
  console.log(`base view on disk: ${size(cacheDir)}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
