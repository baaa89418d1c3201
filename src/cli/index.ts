import { Command, InvalidArgumentError } from 'commander';
import { mintToken } from '../auth/tokens.js';
import { ROLES, type Role } from '../domain/states.js';
import { invalidInput } from '../errors.js';
import { createDeps } from '../deps.js';
import { cliConfig, processIo, reportCliError, withDeps, type Io } from './context.js';
import { runMigrations, serve, work } from './server.js';
import { registerPipelineCommands } from './pipeline-commands.js';
import { registerClassifyCommand } from './classify-command.js';
import { registerReportCommands } from './report-commands.js';
import { registerSubmitCommand } from './submit-command.js';
import { registerDoctorCommand } from './doctor-command.js';
import { registerWatchCommand } from './watch-command.js';
import { registerShowCommand } from './show-command.js';
import { registerDatasetCommand } from './dataset-command.js';
import { registerImportCommand } from './import-command.js';
import { registerInstancesCommand } from './instances-command.js';
import { registerHealthCommands } from './health-commands.js';
import { registerImagesCommand } from './images-command.js';
import { registerPoolCommands } from './pool-command.js';

const role = (value: string): Role => {
  if ((ROLES as readonly string[]).includes(value)) return value as Role;
  throw new InvalidArgumentError(`must be one of ${ROLES.join(', ')}`);
};

export function buildProgram(io: Io = processIo): Command {
  const program = new Command('ci-replay').description('Evaluate candidate code patches by replaying real CI').showHelpAfterError();
  program.configureOutput({ writeOut: io.out, writeErr: io.err });

  program
    .command('serve')
    .description('start the HTTP API')
    .action(async () => {
      const config = cliConfig();
      await serve(createDeps(config));
    });

  program
    .command('worker')
    .description('start the queue workers (prepare, events, logs, finalize, maintenance)')
    .action(async () => {
      await work(createDeps(cliConfig()));
    });

  program
    .command('migrate')
    .description('apply pending database migrations (recorded in _prisma_migrations like prisma migrate deploy)')
    .action(async () => {
      const applied = await withDeps((deps) => runMigrations(deps));
      io.out(applied.length === 0 ? 'database is up to date' : `applied ${applied.length} migration(s): ${applied.join(', ')}`);
    });

  const token = program.command('token').description('manage API tokens');
  token
    .command('create')
    .description('mint a bearer token (shown once; only its hash is stored)')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`, role)
    .requiredOption('--name <name>', 'who or what uses the token')
    .action(async (options: { role: Role; name: string }) => {
      const minted = await withDeps((deps) => mintToken(deps.repos.tokens, options));
      io.err(`token ${minted.id} (${minted.role}, "${minted.name}"); it is shown only once:`);
      io.out(minted.token);
    });
  token
    .command('list')
    .description('list tokens (never their values)')
    .action(async () => {
      const rows = await withDeps((deps) => deps.repos.tokens.list());
      for (const row of rows) io.out(`${row.id}  ${row.role.padEnd(9)}  ${row.prefix}…  ${row.name}${row.revokedAt === null ? '' : '  (revoked)'}`);
    });
  token
    .command('revoke')
    .argument('<id>', 'token id')
    .action(async (id: string) => {
      const revoked = await withDeps((deps) => deps.repos.tokens.revoke(id));
      io.out(revoked ? `revoked ${id}` : `no active token ${id}`);
      if (!revoked) process.exitCode = 2;
    });

  const repos = program.command('repos').description('benchmark repositories (CI_BACKEND=github)');
  repos
    .command('sync')
    .description('ensure one benchmark repository per upstream: fork or mirror in BENCH_OWNER, Actions and workflows enabled')
    .option('--instance <id>', 'only the repository of this instance')
    .option('--all', 'every upstream of the catalog')
    .option('--json', 'print JSON')
    .action(async (options: { instance?: string; all?: boolean; json?: boolean }) => {
      if ((options.instance === undefined) === (options.all !== true)) throw invalidInput('invalid_arguments', 'give --instance <id> or --all');
      const outcomes = await withDeps(async (deps) => {
        if (deps.github === null) throw invalidInput('not_github', 'repos sync needs CI_BACKEND=github and the GitHub App settings (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, BENCH_OWNER)');
        return deps.github.syncBenchRepos(options.instance !== undefined ? { instanceId: options.instance } : { all: true });
      });
      io.out(options.json === true ? JSON.stringify(outcomes, null, 2) : outcomes.map((outcome) => JSON.stringify(outcome)).join('\n'));
    });

  registerPipelineCommands(program, io);
  registerPoolCommands(program, io);
  registerClassifyCommand(program, io);
  registerReportCommands(program, io);
  registerSubmitCommand(program, io);
  registerWatchCommand(program, io);
  registerShowCommand(program, io);
  registerDoctorCommand(program, io);
  registerDatasetCommand(program, io);
  registerImportCommand(program, io);
  registerInstancesCommand(program, io);
  registerHealthCommands(program, io);
  registerImagesCommand(program, io);
  return program;
}

export async function runCli(argv: string[], io: Io = processIo): Promise<void> {
  try {
    await buildProgram(io).parseAsync(argv);
  } catch (error) {
    reportCliError(error, io);
  }
}
