import type { Command } from 'commander';
import { invalidInput } from '../errors.js';
import { PROTECTIONS, getDatasetPolicy, isProtection, updateDatasetPolicy, type DatasetPolicy } from '../protection/index.js';
import { withDeps, type Io } from './context.js';

/** `ci-replay dataset policy <name> [--protection p] [--paths glob,...]`: show or set a dataset's protection policy. */
export function registerDatasetCommand(program: Command, io: Io): void {
  const dataset = program.command('dataset').description('datasets of instances');
  dataset
    .command('policy')
    .description("show a dataset's anti-tampering policy, or set it with --protection and/or --paths")
    .argument('<name>', 'dataset name (as imported with --dataset; default ci-repair-bench)')
    .option('--protection <protection>', `one of ${PROTECTIONS.join(', ')}`)
    .option('--paths <globs>', 'comma-separated globs reverted in every instance of the dataset ("" clears them)')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { protection?: string; paths?: string; json?: boolean }) => {
      if (options.protection !== undefined && !isProtection(options.protection)) {
        throw invalidInput('invalid_arguments', `--protection must be one of ${PROTECTIONS.join(', ')}`);
      }
      const protection = options.protection;
      const protectedPaths = options.paths === undefined ? undefined : options.paths.split(',').map((glob) => glob.trim()).filter((glob) => glob !== '');
      const policy = await withDeps((deps) =>
        protection === undefined && protectedPaths === undefined
          ? getDatasetPolicy(deps.repos.datasetPolicies, name)
          : updateDatasetPolicy(deps.repos.datasetPolicies, name, { ...(protection !== undefined ? { protection } : {}), ...(protectedPaths !== undefined ? { protectedPaths } : {}) }),
      );
      io.out(options.json === true ? JSON.stringify(policy, null, 2) : describe(policy));
    });
}

function describe(policy: DatasetPolicy): string {
  return [
    `dataset ${policy.dataset}: protection ${policy.protection}${policy.source === 'default' ? ' (default; none stored)' : ''}`,
    `protected paths: ${policy.protectedPaths.length === 0 ? '(none)' : policy.protectedPaths.join(', ')}`,
  ].join('\n');
}
