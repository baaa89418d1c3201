/**
 * Per-step overhead of the local executor: a job of N tiny `run:` steps through runWorkflow, against
 * the same N scripts spawned directly (`bash -e script`, one process per step, detached like a naive
 * runner). Prints the per-step time of both and the difference. Run: `npx tsx bench/executor-overhead.ts [N]`.
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { runWorkflow } from '../src/executor/index.js';

const steps = Number(process.argv[2] ?? 200);
const root = mkdtempSync(join(tmpdir(), 'exec-bench-'));
const gitDir = join(root, 'repo');
mkdirSync(gitDir);
const gitEnv = { PATH: '/usr/bin:/bin', HOME: root, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@e', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@e' };
execFileSync('git', ['init', '-q', gitDir], { env: gitEnv });
writeFileSync(join(gitDir, 'README.md'), 'bench\n');
execFileSync('git', ['add', '.'], { cwd: gitDir, env: gitEnv });
execFileSync('git', ['commit', '-q', '-m', 'bench'], { cwd: gitDir, env: gitEnv });
const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: gitDir, env: gitEnv, encoding: 'utf8' }).trim();

const scripts = Array.from({ length: steps }, (_, i) => `echo step ${i}\ntrue`);
const workflow = [
  'on: push',
  'jobs:',
  '  many:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  ...scripts.map((s) => `      - run: |\n${s.split('\n').map((l) => `          ${l}`).join('\n')}`),
].join('\n');

async function direct(): Promise<number> {
  const dir = join(root, 'direct');
  mkdirSync(dir, { recursive: true });
  const start = performance.now();
  for (const [i, script] of scripts.entries()) {
    const file = join(dir, `s${i}.sh`);
    writeFileSync(file, script);
    await new Promise<void>((resolve, reject) => {
      const child = spawn('bash', ['-e', file], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } });
      child.stdout.on('data', () => undefined);
      child.stderr.on('data', () => undefined);
      child.on('error', reject);
      child.on('close', () => resolve());
    });
  }
  return performance.now() - start;
}

async function executor(): Promise<number> {
  let id = 1;
  const start = performance.now();
  const result = await runWorkflow({
    workflow: { text: workflow, path: '.github/workflows/bench.yml' },
    repo: { gitDir, fullName: 'bench/repo' },
    sha,
    ref: 'refs/heads/main',
    runId: '1',
    runAttempt: 1,
    workRoot: join(root, 'work'),
    logsDir: join(root, `logs-${Date.now()}`),
    artifactsDir: join(root, 'artifacts'),
    nextJobId: () => String((id += 1)),
    onEvent: () => undefined,
    logger: pino({ level: 'silent' }),
  });
  if (result.conclusion !== 'success') throw new Error(`bench run concluded ${result.conclusion}`);
  return performance.now() - start;
}

try {
  await direct();
  const directMs = await direct();
  const executorMs = await executor();
  const perDirect = directMs / steps;
  const perExecutor = executorMs / steps;
  console.log(`steps: ${steps}`);
  console.log(`direct bash -e per step:   ${perDirect.toFixed(2)} ms (total ${directMs.toFixed(0)} ms)`);
  console.log(`executor per step:         ${perExecutor.toFixed(2)} ms (total ${executorMs.toFixed(0)} ms, incl. run setup)`);
  console.log(`executor overhead per step: ${(perExecutor - perDirect).toFixed(2)} ms (target < 50 ms)`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
