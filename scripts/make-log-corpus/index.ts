/**
 * Generates the labelled log corpus under test/fixtures/logs/ by running real tools on small broken projects and
 * wrapping their output in GitHub's raw log format.
 *
 *   npm install --prefix /tmp/classify-tools pyright @astral-sh/ruff-wasm-nodejs   # once
 *   apt-get install python3-pytest flake8 black isort mypy pylint pydocstyle python3-venv
 *   npx tsx scripts/make-log-corpus/index.ts [--tools /tmp/classify-tools] [--only <name>[,<name>...]]
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CASES } from './cases/index.js';
import type { CorpusCase } from './case.js';
import { GithubLogWriter, type LogStep } from './github-log.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const outDir = join(repo, 'test/fixtures/logs');
const args = process.argv.slice(2);
const argValue = (flag: string): string | undefined => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const toolsDir = argValue('--tools') ?? '/tmp/classify-tools';
const only = argValue('--only');
const work = '/tmp/ci-corpus';
const shownRoot = '/home/runner/work/demo/demo';

function prepareBin(): string {
  const bin = join(work, 'bin');
  mkdirSync(bin, { recursive: true });
  const ruff = join(bin, 'ruff');
  writeFileSync(ruff, `#!/bin/sh\nRUFF_WASM_DIR=${toolsDir} exec node ${join(here, 'ruff-cli.mjs')} "$@"\n`);
  chmodSync(ruff, 0o755);
  return bin;
}

interface StepRecord {
  number: number;
  name: string;
  conclusion: 'success' | 'failure' | 'skipped' | 'cancelled';
}

function runCase(c: CorpusCase, bin: string): { log: string; steps: StepRecord[]; conclusion: string } {
  const root = join(work, c.slug, c.name);
  const project = join(root, 'demo');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  for (const [path, content] of Object.entries(c.files)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), content);
  }
  const env = {
    PATH: `${bin}:/usr/bin:/bin:${join(toolsDir, 'node_modules/.bin')}:${join(repo, 'node_modules/.bin')}:/root/.cargo/bin`,
    RUSTUP_HOME: process.env.RUSTUP_HOME ?? '/root/.rustup',
    CARGO_HOME: process.env.CARGO_HOME ?? '/root/.cargo',
    HOME: join(root, 'home'),
    LANG: 'C.UTF-8',
    PYTHONDONTWRITEBYTECODE: '1',
    PIP_DISABLE_PIP_VERSION_CHECK: '1',
    PIP_NO_INPUT: '1',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
  };
  if (c.setup !== undefined) {
    const setup = spawnSync('bash', ['-e', '-c', c.setup], { cwd: project, env, encoding: 'utf8' });
    if (setup.status !== 0) throw new Error(`setup of ${c.name} failed: ${setup.stdout}${setup.stderr}`);
  }
  const writer = new GithubLogWriter();
  writer.setUpJob(c.job ?? 'build');
  writer.checkout();
  writer.setupPython();
  const steps: StepRecord[] = [
    { number: 1, name: 'Set up job', conclusion: 'success' },
    { number: 2, name: 'Run actions/checkout@v4', conclusion: 'success' },
    { number: 3, name: 'Run actions/setup-python@v5', conclusion: 'success' },
  ];
  let failed = false;
  let conclusion = 'success';
  for (const step of c.steps) {
    const header = step.run.trim().split('\n');
    const name = step.name ?? `Run ${header[0] ?? ''}`;
    if (failed) {
      steps.push({ number: steps.length + 1, name, conclusion: 'skipped' });
      continue;
    }
    // Like the runner: the script is a file run by `bash --noprofile --norc -e -o pipefail {0}`.
    const script = join(root, `step-${steps.length + 1}.sh`);
    writeFileSync(script, `${step.run}\n`);
    const result = spawnSync('bash', ['-c', `exec 2>&1; exec bash --noprofile --norc -e -o pipefail ${script}`], {
      cwd: project,
      env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      ...(step.killAfterSeconds === undefined ? {} : { timeout: step.killAfterSeconds * 1000, killSignal: 'SIGKILL' as const }),
    });
    const output = (result.stdout ?? '').split(root).join(shownRoot.replace(/\/demo$/, '')).replace(/\n$/, '');
    const errors: string[] = [];
    let stepConclusion: StepRecord['conclusion'] = 'success';
    if (step.killAfterSeconds !== undefined && result.signal !== null) {
      errors.push(step.killedBy === 'cancel' ? 'The operation was canceled.' : 'The action has timed out.');
      stepConclusion = step.killedBy === 'cancel' ? 'cancelled' : 'failure';
    } else if (result.status !== 0) {
      errors.push(`Process completed with exit code ${result.status ?? 1}.`);
      stepConclusion = 'failure';
    }
    const logStep: LogStep = { name, header, output: output === '' ? [] : output.split('\n'), errors };
    writer.step(logStep);
    steps.push({ number: steps.length + 1, name, conclusion: stepConclusion });
    if (stepConclusion !== 'success') {
      failed = true;
      conclusion = stepConclusion;
    }
  }
  writer.postAndComplete();
  steps.push({ number: steps.length + 1, name: 'Post Run actions/checkout@v4', conclusion: 'success' });
  steps.push({ number: steps.length + 1, name: 'Complete job', conclusion: 'success' });
  return { log: writer.text(), steps, conclusion };
}

const bin = prepareBin();
const labelsPath = join(outDir, 'labels.json');
type Labels = Record<string, { labels: string[]; jobConclusion: string; steps: StepRecord[] }>;
// With --only, the other entries of labels.json are kept.
const labels: Labels = only !== undefined && existsSync(labelsPath) ? (JSON.parse(readFileSync(labelsPath, 'utf8')) as Labels) : {};
for (const c of CASES) {
  if (only !== undefined && !only.split(',').includes(c.name)) continue;
  const { log, steps, conclusion } = runCase(c, bin);
  const file = `${c.slug}/${c.name}.log`;
  mkdirSync(join(outDir, c.slug), { recursive: true });
  writeFileSync(join(outDir, file), log);
  labels[file] = { labels: c.labels, jobConclusion: conclusion, steps };
  process.stdout.write(`${file}: ${conclusion} ${c.labels.join(', ') || '(no labels)'}\n`);
}
writeFileSync(labelsPath, `${JSON.stringify(labels, null, 2)}\n`);
