import type { Command } from 'commander';
import { invalidInput } from '../errors.js';
import { CHECK_BACKENDS, checkInstances, renderCheckTable, selectInstances, summarizeChecks, type CheckBackend, type CheckSelection } from '../instances-check/index.js';
import { pipelineDeps } from '../workers.js';
import { withDeps, type Io } from './context.js';

export function checkBackend(value: string): CheckBackend {
  const found = CHECK_BACKENDS.find((backend) => backend === value);
  if (found === undefined) throw invalidInput('invalid_arguments', `--backend must be one of ${CHECK_BACKENDS.join(', ')}`);
  return found;
}

/** `ci-replay instances check (--all | --repo owner/name | --instance id...) [--backend local|github] [--json]`. */
export function registerInstancesCommand(program: Command, io: Io): void {
  const instances = program.command('instances').description('the catalog of instances');
  instances
    .command('check')
    .description("check that instances can be replayed: both commits reachable (and from where), the ground truth applies at sha_fail, the workflow standardizes, and what the backend's preflight would block; nothing is pushed or run")
    .option('--all', 'every instance')
    .option('--repo <owner/name>', "one repository's instances")
    .option('--instance <id...>', 'these instances')
    .option('--backend <backend>', `whose preflight: ${CHECK_BACKENDS.join(' or ')} (default CI_BACKEND)`)
    .option('--json', 'print the results and counts as JSON')
    .action(async (options: { all?: boolean; repo?: string; instance?: string[]; backend?: string; json?: boolean }) => {
      const given = [options.all === true, options.repo !== undefined, options.instance !== undefined].filter(Boolean).length;
      if (given !== 1) throw invalidInput('invalid_arguments', 'give exactly one of --all, --repo <owner/name>, --instance <id...>');
      const backend = options.backend === undefined ? undefined : checkBackend(options.backend);
      const selection: CheckSelection = options.all === true ? { all: true } : options.repo !== undefined ? { repo: options.repo } : { instanceIds: options.instance ?? [] };
      const results = await withDeps(async (deps) => {
        const rows = await selectInstances(deps.repos.instances, selection);
        const pipeline = await pipelineDeps(deps);
        return checkInstances(pipeline, rows, backend === undefined ? {} : { backend }, (result) => {
          if (options.json !== true) io.err(`${result.instanceId}: ${result.problem}`);
        });
      });
      if (options.json === true) io.out(JSON.stringify({ summary: summarizeChecks(results), results }, null, 2));
      else for (const line of renderCheckTable(results)) io.out(line);
      if (results.some((result) => !result.ok)) process.exitCode = 1;
    });
}
