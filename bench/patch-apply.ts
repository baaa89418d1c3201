/**
 * Benchmark: preparing a benchmark commit from (sha_fail, one-file patch) with the git engine
 * (blobless mirror, temporary index, commit-tree, push) against the naive baseline
 * (`git worktree add` checkout of a full clone, `git apply`, `git add -A`, `git commit`, push).
 *
 * Generates once, cached under bench/.work/: a repository with 50,000 files and 1,000 commits
 * (git fast-import). Run: `npx tsx bench/patch-apply.ts [--engine-runs N] [--baseline-runs N]`.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { applyPatch } from '../src/git/apply-patch/index.js';
import { createMirrorCache } from '../src/git/mirror-cache.js';
import { pushCommit } from '../src/git/push-commit.js';
import { runGit } from '../src/git/run-git.js';

const FILES = 50_000;
const COMMITS = 1_000;
const DIRS = 500;
const work = path.join(path.dirname(fileURLToPath(import.meta.url)), '.work');
const upstreamDir = path.join(work, 'upstream.git');
const readyFile = path.join(work, 'upstream.ready');
const argValue = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(name);
  const value = index < 0 ? undefined : Number(process.argv[index + 1]);
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
};
const engineRuns = argValue('--engine-runs', 21);
const baselineRuns = argValue('--baseline-runs', 5);

const fileName = (i: number): string => `pkg/d${String(i % DIRS).padStart(3, '0')}/module_${String(i).padStart(5, '0')}.py`;
const fileContent = (i: number, version: number): string =>
  `"""Module ${i}."""\n\n\ndef value_${i}():\n    return ${version}\n\n\ndef name_${i}():\n    return "module ${i}"\n`;

async function exists(p: string): Promise<boolean> {
  return stat(p).then(() => true, () => false);
}

/** Writes the large upstream with fast-import (50k files in the first commit, then 999 small commits). */
async function generateUpstream(): Promise<string> {
  if (await exists(readyFile)) return (await readFile(readyFile, 'utf8')).trim();
  await rm(upstreamDir, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await runGit(['init', '--quiet', '--bare', '--initial-branch=main', upstreamDir]);
  const chunks: string[] = [];
  let seed = 42;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const versions = new Map<number, number>();
  for (let c = 1; c <= COMMITS; c += 1) {
    const message = `commit ${c}`;
    const when = 1_700_000_000 + c * 600;
    chunks.push(`commit refs/heads/main\nmark :${c}\nauthor Bench <bench@example.com> ${when} +0000\ncommitter Bench <bench@example.com> ${when} +0000\ndata ${message.length}\n${message}\n`);
    if (c > 1) chunks.push(`from :${c - 1}\n`);
    const touched = c === 1 ? Array.from({ length: FILES }, (_, i) => i) : Array.from({ length: 5 }, () => random(FILES));
    for (const i of touched) {
      const version = (versions.get(i) ?? 0) + 1;
      versions.set(i, version);
      const content = fileContent(i, version);
      chunks.push(`M 100644 inline ${fileName(i)}\ndata ${Buffer.byteLength(content)}\n${content}\n`);
    }
    if (c === 1) {
      const workflow = 'name: CI\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n';
      chunks.push(`M 100644 inline .github/workflows/ci.yml\ndata ${workflow.length}\n${workflow}\n`);
    }
    chunks.push('\n');
  }
  const started = Date.now();
  await runGit(['fast-import', '--quiet'], { gitDir: upstreamDir, input: chunks.join(''), timeoutMs: 600_000 });
  const head = (await runGit(['rev-parse', 'refs/heads/main'], { gitDir: upstreamDir })).stdout.toString('utf8').trim();
  await runGit(['repack', '-adq'], { gitDir: upstreamDir, timeoutMs: 600_000 });
  console.log(`generated upstream: ${FILES} files, ${COMMITS} commits in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await writeFile(readyFile, `${head}\n`);
  return head;
}

/** A one-file patch against sha_fail (git diff of a scratch commit). */
async function onePatch(shaFail: string): Promise<string> {
  const target = 12_345;
  const file = fileName(target);
  const current = (await runGit(['cat-file', 'blob', `${shaFail}:${file}`], { gitDir: upstreamDir })).stdout.toString('utf8');
  const fixed = current.replace(/return (\d+)\n/, 'return $1 + 1  # fixed\n');
  const blob = (await runGit(['hash-object', '-w', '--stdin'], { gitDir: upstreamDir, input: fixed })).stdout.toString('utf8').trim();
  const oldBlob = (await runGit(['rev-parse', `${shaFail}:${file}`], { gitDir: upstreamDir })).stdout.toString('utf8').trim();
  const diff = await runGit(['diff', '--full-index', oldBlob, blob], { gitDir: upstreamDir });
  return diff.stdout.toString('utf8').replaceAll(`a/${oldBlob}`, `a/${file}`).replaceAll(`b/${blob}`, `b/${file}`);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

function sh(command: string, args: readonly string[], cwd: string, gitBinary = 'git'): Promise<void> {
  return new Promise((resolve, reject) => {
    const bin = command === 'git' ? gitBinary : command;
    const child = spawn(bin, args, {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: '/usr/bin:/bin', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed: ${stderr}`))));
  });
}

/** A git wrapper that records each process's peak RSS (KiB) with GNU time. */
async function rssWrapper(log: string): Promise<string | undefined> {
  if (!(await exists('/usr/bin/time'))) return undefined;
  const wrapper = path.join(work, 'git-rss.sh');
  await writeFile(wrapper, `#!/bin/sh\nexec /usr/bin/time -a -o '${log}' -f '%M %C' /usr/bin/git "$@"\n`);
  await chmod(wrapper, 0o755);
  return wrapper;
}

async function peakRss(log: string): Promise<{ kib: number; command: string; processes: number }> {
  const lines = (await readFile(log, 'utf8').catch(() => '')).split('\n').filter((l) => /^\d+ /.test(l));
  let best = { kib: 0, command: '', processes: lines.length };
  for (const line of lines) {
    const space = line.indexOf(' ');
    const kib = Number(line.slice(0, space));
    if (kib > best.kib) best = { kib, command: line.slice(space + 1).replace(/(-c \S+ )+/g, '').slice(0, 60), processes: lines.length };
  }
  return best;
}

async function main(): Promise<void> {
  const shaFail = await generateUpstream();
  const logger = pino({ level: 'warn' });
  const dataDir = path.join(work, 'data');
  const cache = createMirrorCache({ dataDir, logger });
  const repo = { owner: 'bench', name: 'large', url: upstreamDir };
  const mirrorExisted = await exists(cache.gitDirOf(repo));
  let started = Date.now();
  const gitDir = await cache.ensureCommits(repo, [shaFail]);
  if (!mirrorExisted) console.log(`mirror (blobless partial clone) created in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // Push target: a bare copy of the upstream (as a fork would be), recreated each run.
  const target = path.join(work, 'target.git');
  await rm(target, { recursive: true, force: true });
  await runGit(['clone', '--quiet', '--bare', '--local', upstreamDir, target], { timeoutMs: 600_000 });
  // Baseline source: a full (non-partial) bare clone, cached.
  const full = path.join(work, 'full.git');
  if (!(await exists(full))) await runGit(['clone', '--quiet', '--bare', '--local', upstreamDir, full], { timeoutMs: 600_000 });
  const patch = await onePatch(shaFail);
  const patchFile = path.join(work, 'one.patch');
  await writeFile(patchFile, patch);
  const runId = Date.now().toString(36);
  const identity = { name: 'ci-replay', email: 'ci-replay@example.com' };

  const engineOnce = async (i: number, gitBinary?: string): Promise<{ total: number; apply: number; push: number }> => {
    const t0 = performance.now();
    await cache.ensureCommits(repo, [shaFail]);
    const result = await applyPatch({
      gitDir, baseSha: shaFail, patch, identity, date: new Date(Date.UTC(2024, 0, 1) + i * 1000), message: `bench ${i}`,
      protectedPaths: ['tests/**'], overrides: [{ path: '.github/workflows/ci.yml', content: 'name: CI\non: push\njobs: {}\n' }],
      gitBinary,
    });
    if (!result.ok) throw new Error(result.message);
    const t1 = performance.now();
    await pushCommit({ gitDir, remoteUrl: target, commitSha: result.commitSha, branch: `engine-${runId}-${i}`, gitBinary });
    const t2 = performance.now();
    return { total: t2 - t0, apply: t1 - t0, push: t2 - t1 };
  };

  const baselineOnce = async (i: number, gitBinary?: string): Promise<number> => {
    const tree = path.join(work, `wt-${runId}-${i}`);
    const t0 = performance.now();
    await sh('git', ['--git-dir', full, 'worktree', 'add', '--quiet', '--detach', tree, shaFail], work, gitBinary);
    await sh('git', ['apply', patchFile], tree, gitBinary);
    await sh('git', ['add', '-A'], tree, gitBinary);
    await sh('git', ['-c', 'user.name=ci-replay', '-c', 'user.email=ci-replay@example.com', 'commit', '--quiet', '-m', `baseline ${i}`], tree, gitBinary);
    await sh('git', ['push', '--quiet', target, `HEAD:refs/heads/baseline-${runId}-${i}`], tree, gitBinary);
    await sh('git', ['--git-dir', full, 'worktree', 'remove', '--force', tree], work, gitBinary);
    return performance.now() - t0;
  };

  started = Date.now();
  const cold = await engineOnce(0);
  const engine: { total: number; apply: number; push: number }[] = [];
  for (let i = 1; i <= engineRuns; i += 1) engine.push(await engineOnce(i));
  await baselineOnce(0);
  const baseline: number[] = [];
  for (let i = 1; i <= baselineRuns; i += 1) baseline.push(await baselineOnce(i));

  const rssLog = path.join(work, `rss-${runId}.log`);
  const wrapper = await rssWrapper(rssLog);
  let rssLines: string[] = ['peak RSS: /usr/bin/time not installed'];
  if (wrapper !== undefined) {
    await engineOnce(10_000, wrapper);
    const engineRss = await peakRss(rssLog);
    await rm(rssLog, { force: true });
    await baselineOnce(10_000, wrapper);
    const baselineRss = await peakRss(rssLog);
    await rm(rssLog, { force: true });
    rssLines = [
      `peak RSS of one git process, engine:   ${(engineRss.kib / 1024).toFixed(1)} MiB (${engineRss.processes} git processes; largest: ${engineRss.command})`,
      `peak RSS of one git process, baseline: ${(baselineRss.kib / 1024).toFixed(1)} MiB (${baselineRss.processes} git processes; largest: ${baselineRss.command})`,
    ];
  }
  await runGit(['worktree', 'prune'], { gitDir: full });

  const engineMedian = median(engine.map((e) => e.total));
  const baselineMedian = median(baseline);
  const objects = (await runGit(['count-objects', '-v'], { gitDir })).stdout.toString('utf8');
  const size = /size-pack: (\d+)/.exec(objects)?.[1] ?? '?';
  console.log('');
  console.log(`patch-apply benchmark: ${FILES} files, ${COMMITS} commits, one-file patch (git ${(await runGit(['version'])).stdout.toString('utf8').trim().replace('git version ', '')})`);
  console.log(`mirror: blobless partial clone, ${size} KiB packed`);
  console.log(`engine   (ensureCommits + applyPatch + pushCommit), ${engineRuns} runs:`);
  console.log(`  median ${engineMedian.toFixed(1)} ms   (apply+commit ${median(engine.map((e) => e.apply)).toFixed(1)} ms, push ${median(engine.map((e) => e.push)).toFixed(1)} ms; first run with blob fetch ${cold.total.toFixed(1)} ms)`);
  console.log(`baseline (worktree add + git apply + add -A + commit + push + worktree remove), ${baselineRuns} runs:`);
  console.log(`  median ${baselineMedian.toFixed(1)} ms`);
  console.log(`speed-up: ${(baselineMedian / engineMedian).toFixed(1)}x (target >= 10x)`);
  for (const line of rssLines) console.log(line);
  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (timings are wall-clock; a busy host inflates both sides)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
