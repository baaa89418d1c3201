import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { Command, InvalidArgumentError } from 'commander';
import type { Deps } from '../deps.js';
import { SUBMISSION_KINDS, type SubmissionKind } from '../domain/states.js';
import { invalidInput } from '../errors.js';
import { withDeps, type Io } from './context.js';
import { checkPredictions, readPredictions, type Prediction, type PredictionProblem } from './predictions.js';
import { ensureRun } from './run-ref.js';
import { finishWatch, seconds, watchRun } from './watch-command.js';

interface SubmitOptions {
  instance?: string;
  patch?: string;
  kind: string;
  run?: string;
  idempotencyKey?: string;
  skipInvalid?: boolean;
  batchSize: number;
  watch?: boolean;
  interval?: number;
  timeout?: number;
  json?: boolean;
}

const batchSize = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 1000) throw new InvalidArgumentError('must be an integer from 1 to 1000');
  return parsed;
};

/**
 * The Idempotency-Key of one batch: derived from the input's bytes, the run, the batching and the batch's index,
 * so the same command run again replays the batches already written instead of submitting them twice.
 */
export function batchKey(contentSha256: string, runId: string, options: { batchSize: number; skipInvalid: boolean }, index: number): string {
  const digest = createHash('sha256').update(JSON.stringify([contentSha256, runId, options.batchSize, options.skipInvalid, index])).digest('hex');
  return `campaign-${digest.slice(0, 48)}`;
}

const problemLine = (problem: PredictionProblem): string => `  ${problem.source}${problem.instanceId === null ? '' : ` (${problem.instanceId})`}: ${problem.code}: ${problem.message}`;

/** A campaign: predictions checked, then submitted in all-or-nothing batches with derived Idempotency-Keys. */
async function submitCampaign(deps: Deps, input: string, options: SubmitOptions, io: Io): Promise<void> {
  if (options.instance !== undefined || options.patch !== undefined || options.idempotencyKey !== undefined) {
    throw invalidInput('invalid_arguments', 'a predictions file takes no --instance, --patch or --idempotency-key (keys are derived from the file)');
  }
  if (options.kind !== 'candidate') throw invalidInput('invalid_arguments', 'a campaign submits candidate patches: omit --kind');
  const runRef = options.run;
  if (runRef === undefined) throw invalidInput('invalid_arguments', 'a campaign needs --run <label> (created when no CLI run has it) or --run <run id>');
  const parsed = await readPredictions(input);
  const known = new Map<string, boolean>();
  const { valid, problems } = await checkPredictions(parsed, {
    patchMaxBytes: deps.config.limits.patchMaxBytes,
    async instanceExists(id) {
      const cached = known.get(id);
      if (cached !== undefined) return cached;
      const exists = (await deps.repos.instances.get(id)) !== null;
      known.set(id, exists);
      return exists;
    },
  });
  const total = parsed.predictions.length + parsed.problems.length;
  const skipInvalid = options.skipInvalid === true;
  if (problems.length > 0) {
    io.err(`${problems.length} of ${total} predictions are invalid:\n${problems.map(problemLine).join('\n')}`);
    if (!skipInvalid) {
      if (options.json === true) io.out(JSON.stringify({ submitted: 0, total, invalid: problems }, null, 2));
      throw invalidInput('invalid_predictions', `nothing was submitted: fix the ${problems.length} invalid prediction(s) above, or pass --skip-invalid to submit the ${valid.length} valid one(s)`);
    }
  }
  if (valid.length === 0) throw invalidInput('no_valid_predictions', 'no valid prediction to submit');
  const models = [...new Set(valid.map((prediction) => prediction.model).filter((model): model is string => model !== null))];
  const { run, created: runCreated } = await ensureRun(deps.repos, runRef, { source: 'ci-replay submit', ...(models.length > 0 ? { models } : {}) });
  const batches: { index: number; created: boolean; accepted: number }[] = [];
  const submissionIds: string[] = [];
  for (let start = 0, index = 0; start < valid.length; start += options.batchSize, index += 1) {
    const rows = valid.slice(start, start + options.batchSize);
    const body = Readable.from(rows.map((row: Prediction) => `${JSON.stringify({ instanceId: row.instanceId, patch: row.patch })}\n`));
    const { result, created } = await deps.submissions.createBatch(run.id, body, { kind: 'candidate', atomic: true, idempotencyKey: batchKey(parsed.contentSha256, run.id, { batchSize: options.batchSize, skipInvalid }, index) });
    batches.push({ index, created, accepted: result.accepted });
    submissionIds.push(...result.submissionIds);
    if (options.json !== true) io.err(`batch ${index + 1}: ${created ? `submitted ${result.accepted}` : `${result.accepted} already submitted (resumed)`}`);
  }
  const submitted = batches.filter((batch) => batch.created).reduce((sum, batch) => sum + batch.accepted, 0);
  const summary = {
    runId: run.id,
    label: run.label,
    runCreated,
    format: parsed.format,
    total,
    valid: valid.length,
    invalid: problems,
    submitted,
    alreadySubmitted: valid.length - submitted,
    batches,
    submissionIds,
  };
  if (options.watch === true) {
    if (options.json !== true) io.out(`run ${run.label} (${run.id}): ${submitted} submitted, ${valid.length - submitted} already submitted; watching`);
    const result = await watchRun(deps, run, io, { ...(options.interval !== undefined ? { interval: options.interval } : {}), ...(options.timeout !== undefined ? { timeout: options.timeout } : {}), json: options.json === true });
    await finishWatch(deps, result, io, options.json === true, { submit: summary });
    return;
  }
  if (options.json === true) {
    io.out(JSON.stringify(summary, null, 2));
    return;
  }
  io.out(
    `run ${run.label} (${run.id}${runCreated ? ', new' : ''}): ${submitted} submitted, ${valid.length - submitted} already submitted earlier${problems.length > 0 ? `, ${problems.length} invalid skipped` : ''}\nfollow it: ci-replay watch ${run.id}`,
  );
}

/** The single form: one patch for one instance (as POST /v1/submissions). */
async function submitOne(deps: Deps, options: SubmitOptions & { instance: string }, io: Io): Promise<void> {
  if (!(SUBMISSION_KINDS as readonly string[]).includes(options.kind)) throw invalidInput('invalid_arguments', `--kind must be one of ${SUBMISSION_KINDS.join(', ')}`);
  const patch = options.patch === undefined ? undefined : await readFile(options.patch, 'utf8');
  const runId = options.run === undefined ? undefined : (await ensureRun(deps.repos, options.run, { source: 'ci-replay submit' })).run.id;
  const result = await deps.submissions.create(
    { instanceId: options.instance, kind: options.kind as SubmissionKind, ...(patch !== undefined ? { patch } : {}), ...(runId !== undefined ? { runId } : {}) },
    options.idempotencyKey,
  );
  if (options.json === true) {
    io.out(JSON.stringify({ created: result.created, submission: { id: result.submission.id, state: result.submission.state, instanceId: result.submission.instanceId, runId: result.submission.runId } }, null, 2));
    return;
  }
  io.out(`${result.created ? 'queued' : 'already queued as'} submission ${result.submission.id} (state ${result.submission.state})`);
}

/** `ci-replay submit`: a whole campaign from predictions, or one patch (`--instance`). */
export function registerSubmitCommand(program: Command, io: Io): void {
  program
    .command('submit')
    .description('queue submissions: a campaign from a predictions file, a directory of patches or stdin; or one patch with --instance')
    .argument('[predictions]', 'SWE-bench predictions (JSONL, or a JSON array/object of {instance_id, model_patch, model_name_or_path}), a directory of <instance_id>.patch|.diff files, or - for stdin')
    .option('--run <run>', 'the run: a label (the CLI run with it, created when missing) or a run id')
    .option('--skip-invalid', 'submit the valid predictions even when some are invalid (they are listed)')
    .option('--batch-size <n>', 'predictions per all-or-nothing batch (1-1000)', batchSize, 100)
    .option('--watch', 'then follow the run as `ci-replay watch` does')
    .option('--interval <seconds>', 'with --watch: seconds between polls', seconds)
    .option('--timeout <seconds>', 'with --watch: stop waiting after this long (exit 4)', seconds)
    .option('--instance <id>', 'one submission: the instance id')
    .option('--patch <file>', 'one submission: a unified diff (git format)')
    .option('--kind <kind>', `one submission: one of ${SUBMISSION_KINDS.join(', ')}`, 'candidate')
    .option('--idempotency-key <key>', 'one submission: the same key and patch return the first submission')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  ci-replay submit --run my-agent-v2 predictions.jsonl',
        '  ci-replay submit --run my-agent-v2 patches/ --skip-invalid --watch',
        '  cat predictions.json | ci-replay submit --run my-agent-v2 - --json',
        '  ci-replay submit --instance demo-lint --patch fix.patch',
        '',
        'Every prediction is checked first (unknown instance, duplicate, empty or invalid patch: listed by line, entry or file);',
        'nothing is submitted unless all are valid or --skip-invalid is given. Batches carry an Idempotency-Key derived from',
        'the input, the run and the batch index: running the same command again resumes instead of duplicating.',
        'Exit codes: 0 submitted, 2 invalid input (nothing submitted); with --watch as `ci-replay watch` (0, 3, 4).',
      ].join('\n'),
    )
    .action(async (predictions: string | undefined, options: SubmitOptions) => {
      if ((predictions === undefined) === (options.instance === undefined)) throw invalidInput('invalid_arguments', 'give a predictions file, directory or - (a campaign), or --instance <id> (one submission)');
      await withDeps(async (deps) => {
        if (predictions !== undefined) await submitCampaign(deps, predictions, options, io);
        else await submitOne(deps, { ...options, instance: options.instance ?? '' }, io);
      });
    });
}
