/**
 * Per-step cost of the step sandbox: the same job of N tiny `run:` steps through runWorkflow with the sandbox off
 * and on (namespaces, network none), alternating rounds; also the one-off cost per job (namespace setup). Prints
 * milliseconds per step. Run: `npx tsx bench/step-sandbox.ts [steps] [rounds]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { DEFAULT_SANDBOX_SETTINGS, runWorkflow, type SandboxSettings } from '../src/executor/index.js';

const steps = Number(process.argv[2] ?? 100);
const rounds = Number(process.argv[3] ?? 3);
const root = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
const gitDir = join(root, 'repo');
mkdirSync(gitDir);
const gitEnv = { PATH: '/usr/bin:/bin', HOME: root, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@e', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@e' };
execFileSync('git', ['init', '-q', gitDir], { env: gitEnv });
writeFileSync(join(gitDir, 'README.md'), 'bench\n');
execFileSync('git', ['add', '.'], { cwd: gitDir, env: gitEnv });
execFileSync('git', ['commit', '-q', '-m', 'bench'], { cwd: gitDir, env: gitEnv });
const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: gitDir, env: gitEnv, encoding: 'utf8' }).trim();

const workflow = (n: number): string =>
  ['on: push', 'jobs:', '  many:', '    runs-on: ubuntu-latest', '    steps:', ...Array.from({ length: n }, (_, i) => `      - run: echo step ${i}`)].join('\n');

let id = 1;
async function run(n: number, sandbox: SandboxSettings): Promise<number> {
  const start = performance.now();
  const result = await runWorkflow({
    workflow: { text: workflow(n), path: '.github/workflows/bench.yml' },
    repo: { gitDir, fullName: 'bench/repo' },
    sha,
    ref: 'refs/heads/main',
    runId: String((id += 1)),
    runAttempt: 1,
    workRoot: join(root, 'work'),
    logsDir: join(root, `logs-${id}`),
    artifactsDir: join(root, 'artifacts'),
    nextJobId: () => String((id += 1)),
    onEvent: () => undefined,
    logger: pino({ level: 'silent' }),
    sandbox,
  });
  if (result.conclusion !== 'success') throw new Error(`bench run concluded ${result.conclusion}`);
  return performance.now() - start;
}

const off: SandboxSettings = { ...DEFAULT_SANDBOX_SETTINGS, mode: 'off' };
const on: SandboxSettings = { ...DEFAULT_SANDBOX_SETTINGS, mode: 'namespaces', network: 'none' };
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

try {
  await run(5, off);
  await run(5, on);
  const perStep = { off: [] as number[], on: [] as number[] };
  const perJob = { off: [] as number[], on: [] as number[] };
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, settings] of [['off', off], ['on', on]] as const) {
      // the job's fixed cost (setup, namespaces, teardown) from a 1-step job; the step cost from the N-step job
      const one = await run(1, settings);
      const many = await run(steps + 1, settings);
      perJob[name].push(one);
      perStep[name].push((many - one) / steps);
    }
  }
  const stepOff = median(perStep.off);
  const stepOn = median(perStep.on);
  console.log(`steps per job: ${steps}, rounds: ${rounds} (medians)`);
  console.log(`sandbox off: ${stepOff.toFixed(2)} ms per step, ${median(perJob.off).toFixed(0)} ms for a one-step job`);
  console.log(`sandbox on:  ${stepOn.toFixed(2)} ms per step, ${median(perJob.on).toFixed(0)} ms for a one-step job`);
  console.log(`sandbox overhead: ${(stepOn - stepOff).toFixed(2)} ms per step, ${(median(perJob.on) - median(perJob.off)).toFixed(0)} ms per job`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
