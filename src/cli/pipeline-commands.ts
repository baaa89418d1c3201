import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { CiEvent } from '../domain/ci-events.js';
import { isTerminal, type SubmissionState } from '../domain/states.js';
import { invalidInput, notFound } from '../errors.js';
import { validatePatch } from '../patches/validate-patch.js';
import type { PipelineDeps } from '../pipeline/context.js';
import { inlineQueues } from '../pipeline/inline-queues.js';
import { buildBenchmarkCommit, prepareSubmission, upstreamOf } from '../pipeline/prepare.js';
import { preflightInput, withPreflight } from '../pipeline/preflight.js';
import { pipelineDeps } from '../workers.js';
import { createLeaseKeeper } from '../pipeline/lease-keeper.js';
import { createHash } from 'node:crypto';
import type { Io } from './context.js';
import { startRevalidation } from '../revalidation/service.js';
import { withDeps } from './context.js';
import { runLocalTable, verdictLines } from './run-local-result.js';

interface PatchOptions {
  instance: string;
  patch?: string;
  groundTruth?: boolean;
  baseline?: boolean;
}

async function choosePatch(options: PatchOptions, diff: string, maxBytes: number): Promise<{ kind: 'candidate' | 'reference' | 'baseline'; patch: string }> {
  const chosen = [options.patch !== undefined, options.groundTruth === true, options.baseline === true].filter(Boolean).length;
  if (chosen !== 1) throw invalidInput('invalid_arguments', 'give exactly one of --patch <file>, --ground-truth, --baseline');
  if (options.baseline === true) return { kind: 'baseline', patch: '' };
  if (options.groundTruth === true) return { kind: 'reference', patch: diff };
  const patch = await readFile(options.patch ?? '', 'utf8');
  validatePatch(patch, maxBytes);
  return { kind: 'candidate', patch };
}

function progressLine(event: CiEvent): string | null {
  if (event.kind === 'workflow_run') return event.status === 'completed' ? `run ${event.runId}: ${event.conclusion ?? ''}` : `run ${event.runId}: ${event.status}`;
  if (event.status === 'in_progress') {
    const step = [...event.steps].reverse().find((candidate) => candidate.status === 'in_progress');
    return step === undefined ? `  ${event.name}: started` : `  ${event.name}: ${step.name}…`;
  }
  if (event.status === 'completed') return `  ${event.name}: ${event.conclusion ?? ''}`;
  return null;
}

export function registerPipelineCommands(program: Command, io: Io): void {
  program
    .command('prepare')
    .description("build the benchmark commit of a patch and show its tree changes, standardization report and the backend's preflight blockers; without --dry-run, also queue it as a submission (a worker publishes and runs it)")
    .requiredOption('--instance <id>', 'instance id')
    .option('--patch <file>', 'a unified diff (git format)')
    .option('--ground-truth', "use the instance's ground-truth patch")
    .option('--baseline', 'no patch (the unpatched commit)')
    .option('--dry-run', 'only show the commit: push nothing, queue nothing')
    .option('--run <id>', 'the run the queued submission belongs to')
    .option('--json', 'print JSON')
    .action(async (options: PatchOptions & { json?: boolean; dryRun?: boolean; run?: string }) => {
      await withDeps(async (deps) => {
        const instance = await deps.repos.instances.get(options.instance);
        if (instance === null) throw notFound('instance', options.instance);
        const { kind, patch } = await choosePatch(options, instance.diff, deps.config.limits.patchMaxBytes);
        const pipeline = await pipelineDeps(deps);
        const prepared = await buildBenchmarkCommit(pipeline, instance, { id: 'dry-run', patch, kind, createdAt: new Date(0) });
        if (!prepared.ok) {
          io.err(`patch does not apply:\n${prepared.message}`);
          process.exitCode = 1;
          return;
        }
        const instanceRef = { id: instance.id, repoOwner: instance.repoOwner, repoName: instance.repoName, upstreamUrl: upstreamOf(instance).url, shaFail: instance.shaFail };
        const preflight = { backend: pipeline.backend.name, blockers: await pipeline.backend.preflight(preflightInput('dry-run', instanceRef, prepared)) };
        const standardization = withPreflight(prepared.standardization, preflight);
        if (options.dryRun === true && preflight.blockers.length > 0) process.exitCode = 1;
        const queued =
          options.dryRun === true
            ? null
            : (await deps.submissions.create({ instanceId: instance.id, kind, ...(kind === 'candidate' ? { patch } : {}), ...(options.run !== undefined ? { runId: options.run } : {}) })).submission;
        if (options.json === true) {
          io.out(JSON.stringify({ commitSha: prepared.commitSha, changes: prepared.changes, revertedFiles: prepared.revertedFiles, standardization, preflight, submissionId: queued?.id ?? null }, null, 2));
          return;
        }
        io.out(`commit ${prepared.commitSha} (preview; not pushed)\n\nTree changes against ${instance.shaFail}:`);
        for (const change of prepared.changes) io.out(`  ${change.status}\t${change.oldPath === undefined ? '' : `${change.oldPath} -> `}${change.path}`);
        if (prepared.revertedFiles.length > 0) io.out(`\nReverted (protected paths): ${prepared.revertedFiles.join(', ')}`);
        io.out(`\nStandardization report:\n${standardization.markdown}`);
        if (preflight.blockers.length > 0) io.out(`not replayable on the ${preflight.backend} backend: ${preflight.blockers.length} blocker(s); a submission would end infra_error (not_replayable) without being pushed`);
        if (queued !== null) io.out(`\nqueued as submission ${queued.id} (state ${queued.state}); a worker publishes and runs it`);
      });
    });

  program
    .command('revalidate')
    .description('re-validate instances: queue replays of the unpatched commit (must fail) and the ground truth (must pass); a worker runs them and records each instance\'s health')
    .option('--instance <id...>', 'instance ids')
    .option('--all', 'every instance')
    .option('--repeat <n>', 'replays of each side (default REVALIDATE_REPEATS)', (value) => Number.parseInt(value, 10))
    .action(async (options: { instance?: string[]; all?: boolean; repeat?: number }) => {
      if ((options.instance === undefined) === (options.all !== true)) throw invalidInput('invalid_arguments', 'give --instance <id...> or --all');
      if (options.repeat !== undefined && (!Number.isInteger(options.repeat) || options.repeat < 1 || options.repeat > 10)) throw invalidInput('invalid_arguments', '--repeat must be an integer from 1 to 10');
      await withDeps(async (deps) => {
        const ids = options.instance ?? (await deps.repos.instances.listAll()).map((instance) => instance.id);
        for (const id of ids) {
          const started = await startRevalidation(deps, id, options.repeat);
          const queued = `${started.submissionIds.length} of ${started.repeats * 2} replays queued; a worker queues the rest within REVALIDATE_MAX_CONCURRENT`;
          io.out(`${id}: revalidation ${started.id}${started.created ? '' : ' (already open)'} (${queued})`);
        }
      });
    });

  program
    .command('run-local')
    .description('run one patch end to end on this machine with the local executor, printing live progress and the per-job table')
    .requiredOption('--instance <id>', 'instance id')
    .option('--patch <file>', 'a unified diff (git format)')
    .option('--ground-truth', "use the instance's ground-truth patch")
    .option('--baseline', 'no patch (the unpatched commit must fail)')
    .action(async (options: PatchOptions) => {
      await withDeps(async (deps) => {
        const instance = await deps.repos.instances.get(options.instance);
        if (instance === null) throw notFound('instance', options.instance);
        const { kind, patch } = await choosePatch(options, instance.diff, deps.config.limits.patchMaxBytes);
        const base = await pipelineDeps(deps);
        const backend = base.backend;
        const queues = inlineQueues(() => pipeline, deps.logger);
        // Leased like a worker's run, so a worker's recovery sweep elsewhere never takes it over while it runs here.
        const leases = createLeaseKeeper({ repos: deps.repos, seconds: deps.config.worker.leaseSeconds, logger: deps.logger });
        const pipeline: PipelineDeps = {
          ...base,
          leases,
          queues,
          backend: {
            ...backend,
            afterPublish: (input, context) =>
              backend.afterPublish(input, {
                ...context,
                emit: async (event) => {
                  const line = progressLine(event);
                  if (line !== null) io.err(line);
                  await context.emit(event);
                },
              }),
          },
        };
        const [id] = await deps.repos.submissions.createMany([
          { instanceId: instance.id, runId: null, kind, patch, patchSha256: createHash('sha256').update(patch).digest('hex'), idempotencyKey: null, requestHash: null },
        ]);
        if (id === undefined) throw new Error('submission not created');
        await deps.repos.submissions.markEnqueued([id]);
        io.err(`submission ${id} (${kind}) for instance ${instance.id}`);
        try {
          await prepareSubmission(pipeline, id, deps.logger);
        } finally {
          await leases.stop();
        }
        await queues.close();
        const submission = await deps.repos.submissions.getSummary(id);
        if (submission === null) throw notFound('submission', id);
        const runs = await deps.repos.ci.runsOf(id);
        for (const line of runLocalTable((await Promise.all(runs.map((run) => deps.repos.ci.jobsOfRun(run.id)))).flat(), submission)) io.out(line);
        io.out(`\n${verdictLines(submission).join('\n')}`);
        const state = submission.state as SubmissionState;
        if (!isTerminal(state) || submission.verdict !== 'passed') process.exitCode = 1;
      });
    });
}
