import type { Command } from 'commander';
import { healthSummary, renderHealthSummary, setLifecycleByHand, transitionView } from '../health/index.js';
import { notFound } from '../errors.js';
import { withDeps, type Io } from './context.js';

/** `ci-replay health` (the benchmark's health), `health history`, `quarantine` and `restore` (docs/revalidation.md). */
export function registerHealthCommands(program: Command, io: Io): void {
  const health = program
    .command('health')
    .description('benchmark health: instances by verdict and lifecycle, changes since the last cycle, flakiness per repository, the oldest check')
    .option('--json', 'print the summary as JSON (as GET /v1/health/instances)')
    .action(async (options: { json?: boolean }) => {
      const summary = await withDeps((deps) => healthSummary(deps.repos, { cycleHours: deps.config.revalidation.intervalHours }));
      io.out(options.json === true ? JSON.stringify(summary, null, 2) : renderHealthSummary(summary).trimEnd());
    });

  health
    .command('history')
    .description("an instance's lifecycle and its transitions, newest first")
    .argument('<instance>', 'instance id')
    .option('--json', 'print as JSON')
    .action(async (instanceId: string, _options: unknown, command: Command) => {
      // `--json` is also `health`'s own option: commander gives it to the parent, so read both.
      const options = command.optsWithGlobals<{ json?: boolean }>();
      const result = await withDeps(async (deps) => {
        const state = await deps.repos.instanceHealth.get(instanceId);
        if (state === null) throw notFound('instance', instanceId);
        return { instanceId, lifecycle: state.lifecycle, reason: state.lifecycleReason, health: state.health, transitions: (await deps.repos.instanceHealth.history(instanceId, 100)).map(transitionView) };
      });
      if (options.json === true) {
        io.out(JSON.stringify(result, null, 2));
        return;
      }
      io.out(`${instanceId}: ${result.lifecycle} (verdict ${result.health})${result.reason === null ? '' : ` — ${result.reason}`}`);
      for (const row of result.transitions) io.out(`  ${row.at.toISOString()} ${row.from} → ${row.to} by ${row.actor}: ${row.reason}`);
    });

  for (const action of ['quarantine', 'restore'] as const) {
    program
      .command(action)
      .description(action === 'quarantine' ? 'quarantine an instance by hand (left out of reports; only a restore lifts it)' : 'restore an instance to active by hand')
      .argument('<instance>', 'instance id')
      .requiredOption('--reason <text>', 'why (kept in the instance\'s history)')
      .action(async (instanceId: string, options: { reason: string }) => {
        const result = await withDeps((deps) => setLifecycleByHand(deps.repos, instanceId, action, { reason: options.reason, actor: 'cli' }));
        io.out(`${instanceId}: ${result.from} → ${result.to} (${result.reason})`);
      });
  }
}
