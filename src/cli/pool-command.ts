import { InvalidArgumentError, type Command } from 'commander';
import type { BenchAccountRow } from '../db/index.js';
import { invalidInput } from '../errors.js';
import { createSlotStore, leastLoaded, loadPoolFile, PLAN_CONCURRENT_JOBS, readPoolFile, type AccountLoad } from '../scheduler/index.js';
import { withDeps, type Io } from './context.js';

const positive = (value: string): number => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError('must be a positive integer');
  return number;
};

const plan = (value: string): keyof typeof PLAN_CONCURRENT_JOBS => {
  if (value in PLAN_CONCURRENT_JOBS) return value as keyof typeof PLAN_CONCURRENT_JOBS;
  throw new InvalidArgumentError(`must be one of ${Object.keys(PLAN_CONCURRENT_JOBS).join(', ')}`);
};

interface PoolRow {
  owner: string;
  state: string;
  concurrentJobs: number;
  repositories: number;
  jobsRunning: number;
  submissionsRunning: number;
  queued: AccountLoad['queued'];
  finishedLastHour: number;
  restPerHour: number;
  writesPerMinute: number;
  runnerLabels: string[];
}

/**
 * `ci-replay pool`: the benchmark accounts of the pool (docs/account-pool.md): per account its limit, assigned
 * repositories, jobs running and queued per class (from the scheduler's Redis state) and throughput; `pool set`,
 * `pool load <file>` and `pool drain` manage the BenchAccount table.
 */
export function registerPoolCommands(program: Command, io: Io): void {
  const pool = program.command('pool').description('the account pool: benchmark accounts, their limits and load');
  pool
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const rows = await withDeps(async (deps): Promise<PoolRow[]> => {
        const store = createSlotStore(deps.redis, deps.config.queuePrefix);
        const [accounts, counts] = await Promise.all([deps.repos.benchAccounts.list(), deps.repos.benchAccounts.assignmentCounts()]);
        return Promise.all(
          accounts.map(async (account) => {
            const load = await store.load(account.owner);
            return {
              owner: account.owner, state: account.state, concurrentJobs: account.concurrentJobs, repositories: counts.get(account.owner) ?? 0,
              jobsRunning: load.jobsRunning, submissionsRunning: load.submissionsRunning, queued: load.queued, finishedLastHour: load.finishedLastHour,
              restPerHour: account.restPerHour, writesPerMinute: account.writesPerMinute, runnerLabels: account.runnerLabels,
            };
          }),
        );
      });
      if (options.json === true) return io.out(JSON.stringify(rows, null, 2));
      if (rows.length === 0) return io.out(`no accounts in the pool: the service uses BENCH_OWNER alone (add some with \`ci-replay pool set\` or \`pool load\`)`);
      io.out('account\tstate\tjobs running/limit\tqueued (interactive/campaign/revalidation)\trepositories\tfinished last hour');
      for (const row of rows) {
        const queued = `${row.queued.interactive.submissions}/${row.queued.campaign.submissions}/${row.queued.revalidation.submissions}`;
        io.out(`${row.owner}\t${row.state}\t${row.jobsRunning}/${row.concurrentJobs}\t${queued}\t${row.repositories}\t${row.finishedLastHour}`);
      }
    });

  pool
    .command('set <owner>')
    .description('add or change a benchmark account')
    .option('--plan <plan>', 'free (20 jobs), pro (40), team (60) or enterprise (500)', plan)
    .option('--concurrent-jobs <n>', 'the concurrent-job limit (self-hosted: the runner count)', positive)
    .option('--installation-id <id>', 'the App installation on the account', positive)
    .option('--rest-per-hour <n>', 'REST calls per hour (default 5000)', positive)
    .option('--writes-per-minute <n>', 'content-creating requests per minute (default 80)', positive)
    .option('--runner-label <label...>', 'self-hosted runner labels')
    .action(async (owner: string, options: { plan?: keyof typeof PLAN_CONCURRENT_JOBS; concurrentJobs?: number; installationId?: number; restPerHour?: number; writesPerMinute?: number; runnerLabel?: string[] }) => {
      const concurrentJobs = options.concurrentJobs ?? (options.plan === undefined ? undefined : PLAN_CONCURRENT_JOBS[options.plan]);
      if (concurrentJobs === undefined) throw invalidInput('invalid_arguments', 'give --plan or --concurrent-jobs');
      const row = await withDeps((deps) =>
        deps.repos.benchAccounts.upsert({
          owner, concurrentJobs, state: 'active',
          ...(options.installationId !== undefined ? { installationId: BigInt(options.installationId) } : {}),
          ...(options.restPerHour !== undefined ? { restPerHour: options.restPerHour } : {}),
          ...(options.writesPerMinute !== undefined ? { writesPerMinute: options.writesPerMinute } : {}),
          ...(options.runnerLabel !== undefined ? { runnerLabels: options.runnerLabel } : {}),
        }),
      );
      io.out(describe(row));
    });

  pool
    .command('load <file>')
    .description('add or change the accounts listed in a pool file ({ "accounts": [...] }, docs/account-pool.md)')
    .action(async (file: string) => {
      await readPoolFile(file); // a bad file is refused before any connection is opened
      const rows = await withDeps((deps) => loadPoolFile(deps.repos.benchAccounts, file));
      for (const row of rows) io.out(describe(row));
    });

  pool
    .command('drain <owner>')
    .description('stop giving an account new work; with --move, its repositories move to the least-loaded other accounts')
    .option('--remove', 'mark it removed rather than draining')
    .option('--move', 'move its repositories (and so their queued work) to other accounts')
    .action(async (owner: string, options: { remove?: boolean; move?: boolean }) => {
      const result = await withDeps(async (deps) => {
        const row = await deps.repos.benchAccounts.setState(owner, options.remove === true ? 'removed' : 'draining');
        if (row === null) throw invalidInput('unknown_account', `no account ${owner} in the pool`, undefined, 404);
        if (options.move !== true) return { row, moved: 0 };
        const accounts = await deps.repos.benchAccounts.list();
        const counts = await deps.repos.benchAccounts.assignmentCounts();
        const to = leastLoaded(accounts.map((a) => ({ owner: a.owner, concurrentJobs: a.concurrentJobs, state: a.state === 'active' ? 'active' : 'draining' })), counts);
        if (to === null) throw invalidInput('no_active_account', 'no other active account to move the repositories to');
        return { row, moved: await deps.repos.benchAccounts.move({ from: owner }, to), to };
      });
      io.out(`${describe(result.row)}${result.moved > 0 ? `; ${result.moved} repositories moved to ${'to' in result ? result.to : ''}` : ''}`);
    });
}

function describe(row: BenchAccountRow): string {
  return `${row.owner}\t${row.state}\t${row.concurrentJobs} concurrent jobs\t${row.restPerHour} REST/h\t${row.writesPerMinute} writes/min${row.runnerLabels.length > 0 ? `\trunners ${row.runnerLabels.join(',')}` : ''}`;
}
