/**
 * Jobs in containers against the host executor (docs/local-containers.md), same workflows, alternating rounds:
 *  - per job: a job of 1 tiny step, container vs host (the difference is the container's start, setup and removal);
 *  - per step: a job of N tiny `run:` steps minus the 1-step job, divided by N-1 (the container's step runner, or
 *    `docker exec` where it cannot run, vs nsenter);
 *  - the example's full workflow (examples/python-demo: lint, format, test 3.11/3.12) wall time, container vs host,
 *    with the conclusions of each job (they must be the same).
 * Needs a docker daemon and `ci-replay images build`. Run: `npx tsx bench/container-overhead.ts [steps] [rounds]`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { DEFAULT_CONTAINER_SETTINGS, detectRuntime, type ContainerSettings } from '../src/executor/container/index.js';
import { DEFAULT_SANDBOX_SETTINGS, runWorkflow } from '../src/executor/index.js';

const steps = Number(process.argv[2] ?? 20);
const rounds = Number(process.argv[3] ?? 3);
const root = mkdtempSync(join(tmpdir(), 'container-bench-'));
const gitEnv = { PATH: '/usr/bin:/bin', HOME: root, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@e', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@e' };

function repoOf(dir: string, files: (gitDir: string) => void): { gitDir: string; sha: string } {
  const gitDir = join(root, dir);
  mkdirSync(gitDir, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main', gitDir], { env: gitEnv });
  files(gitDir);
  execFileSync('git', ['add', '.'], { cwd: gitDir, env: gitEnv });
  execFileSync('git', ['commit', '-q', '-m', 'bench'], { cwd: gitDir, env: gitEnv });
  return { gitDir, sha: execFileSync('git', ['rev-parse', 'HEAD'], { cwd: gitDir, env: gitEnv, encoding: 'utf8' }).trim() };
}

const tiny = repoOf('tiny', (dir) => writeFileSync(join(dir, 'README.md'), 'bench\n'));
const demo = repoOf('demo', (dir) => cpSync(join(import.meta.dirname, '..', 'examples', 'python-demo', 'project'), dir, { recursive: true }));
const demoWorkflow = readFileSync(join(demo.gitDir, '.github', 'workflows', 'ci.yml'), 'utf8');
const manySteps = (n: number): string =>
  ['on: push', 'jobs:', '  many:', '    runs-on: ubuntu-latest', '    steps:', ...Array.from({ length: n }, (_, i) => `      - run: echo step ${i}`)].join('\n');

const host: ContainerSettings = { ...DEFAULT_CONTAINER_SETTINGS, runtime: 'host' };
const docker: ContainerSettings = { ...DEFAULT_CONTAINER_SETTINGS, runtime: 'docker' };
let id = 1;

async function run(repo: { gitDir: string; sha: string }, text: string, container: ContainerSettings): Promise<{ ms: number; jobs: string[] }> {
  const start = performance.now();
  const result = await runWorkflow({
    workflow: { text, path: '.github/workflows/bench.yml' }, repo: { gitDir: repo.gitDir, fullName: 'bench/repo' }, sha: repo.sha, ref: 'refs/heads/main',
    runId: String((id += 1)), runAttempt: 1, workRoot: join(root, 'work'), logsDir: join(root, `logs-${id}`), artifactsDir: join(root, `artifacts-${id}`),
    sandbox: { ...DEFAULT_SANDBOX_SETTINGS, network: 'none' }, container, maxParallelJobs: 2,
    nextJobId: () => String((id += 1)), onEvent: () => undefined, logger: pino({ level: 'silent' }),
  });
  const ms = performance.now() - start;
  return { ms, jobs: result.jobs.map((j) => `${j.name}=${j.conclusion}`).sort() };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const { runtime, reason } = await detectRuntime('docker', DEFAULT_CONTAINER_SETTINGS.daemonEnv);
if (runtime === null) throw new Error(`no docker daemon: ${reason}`);
console.log(`runtime ${reason}; ${steps} steps, ${rounds} rounds; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const samples: Record<string, number[]> = { host1: [], hostN: [], docker1: [], dockerN: [], hostDemo: [], dockerDemo: [] };
const conclusions: Record<string, string[]> = {};
// warm-up: page cache, image layers
await run(tiny, manySteps(1), docker);
await run(tiny, manySteps(1), host);
for (let r = 0; r < rounds; r += 1) {
  samples.host1?.push((await run(tiny, manySteps(1), host)).ms);
  samples.docker1?.push((await run(tiny, manySteps(1), docker)).ms);
  samples.hostN?.push((await run(tiny, manySteps(steps), host)).ms);
  samples.dockerN?.push((await run(tiny, manySteps(steps), docker)).ms);
  const h = await run(demo, demoWorkflow, host);
  const d = await run(demo, demoWorkflow, docker);
  samples.hostDemo?.push(h.ms);
  samples.dockerDemo?.push(d.ms);
  conclusions.host = h.jobs;
  conclusions.docker = d.jobs;
}
const m = (k: string): number => median(samples[k] ?? []);
const perStep = (k1: string, kN: string): number => (m(kN) - m(k1)) / (steps - 1);
console.log(`1-step job:  host ${m('host1').toFixed(0)} ms, container ${m('docker1').toFixed(0)} ms → per-job overhead ${(m('docker1') - m('host1')).toFixed(0)} ms`);
console.log(`per step:    host ${perStep('host1', 'hostN').toFixed(1)} ms, container ${perStep('docker1', 'dockerN').toFixed(1)} ms → overhead ${(perStep('docker1', 'dockerN') - perStep('host1', 'hostN')).toFixed(1)} ms`);
console.log(`demo workflow (4 jobs, 2 in parallel): host ${(m('hostDemo') / 1000).toFixed(1)} s, container ${(m('dockerDemo') / 1000).toFixed(1)} s`);
console.log(`demo conclusions host:      ${conclusions.host?.join(' ')}`);
console.log(`demo conclusions container: ${conclusions.docker?.join(' ')}`);
console.log(`same conclusions: ${JSON.stringify(conclusions.host) === JSON.stringify(conclusions.docker)}; load average after ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
rmSync(root, { recursive: true, force: true });
