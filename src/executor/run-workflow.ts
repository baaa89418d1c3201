import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CiEvent, WorkflowJobEvent } from '../domain/ci-events.js';
import { isAppError } from '../errors.js';
import type { ContextValue, EvalEnv } from './expressions.js';
import { evaluateCondition, interpolate, interpolateDeep } from './expressions.js';
import { runJob } from './job-runner/index.js';
import type { JobInput } from './job-runner/job-state.js';
import type { MatrixCombo } from './matrix.js';
import { expandMatrix, matrixJobName } from './matrix.js';
import type { ArtifactResult, JobResult, RunWorkflowOptions, RunWorkflowResult } from './types.js';
import type { JobDef, WorkflowDef } from './workflow-model.js';
import { parseWorkflow } from './workflow-model.js';
import { inlineReusableWorkflows } from './reusable-workflows.js';

const execFileAsync = promisify(execFile);

/** A file of the run's commit, or null when absent (or the source is not a local git directory). */
async function readCommitFile(gitDir: string, sha: string, path: string): Promise<string | null> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(gitDir)) return null;
  try {
    const { stdout } = await execFileAsync('git', ['show', `${sha}:${path}`], { cwd: gitDir, maxBuffer: 8 * 1024 * 1024 });
    return stdout;
  } catch {
    return null;
  }
}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

type KeyOutcome = {
  result: 'success' | 'failure' | 'cancelled' | 'skipped';
  outputs: Record<string, string>;
};

function runUrl(options: RunWorkflowOptions, jobId?: string): string | null {
  if (options.htmlBaseUrl === undefined) return null;
  const run = `${options.htmlBaseUrl.replace(/\/+$/, '')}/${options.repo.fullName}/actions/runs/${options.runId}`;
  return jobId === undefined ? run : `${run}/job/${jobId}`;
}

/** A counting semaphore for the job concurrency limit. */
function semaphore(limit: number): { acquire: () => Promise<void>; release: () => void } {
  let active = 0;
  const waiting: Array<() => void> = [];
  return {
    acquire: () =>
      new Promise<void>((resolve) => {
        if (active < limit) {
          active += 1;
          resolve();
        } else waiting.push(resolve);
      }),
    release: () => {
      const next = waiting.shift();
      if (next === undefined) active -= 1;
      else next();
    },
  };
}

/**
 * Runs a workflow for one commit on this host (no Docker), like GitHub Actions would: jobs in `needs`
 * order, matrix legs, `if:` with GitHub's expression engine, logs in GitHub's raw format, progress
 * as normalized CI events. The per-run working directory is removed afterwards.
 */
export async function runWorkflow(options: RunWorkflowOptions): Promise<RunWorkflowResult> {
  const workflow = await inlineReusableWorkflows(parseWorkflow(options.workflow.text, options.workflow.path), (path) =>
    readCommitFile(options.repo.gitDir, options.sha, path),
  );
  const now = options.now ?? (() => new Date());
  const iso = (): string => now().toISOString();
  const signal = options.signal ?? new AbortController().signal;
  const runnerName = options.runnerName ?? 'ci-replay-local';
  mkdirSync(options.workRoot, { recursive: true });
  mkdirSync(options.logsDir, { recursive: true });
  mkdirSync(options.artifactsDir, { recursive: true });
  const runDir = mkdtempSync(join(options.workRoot, `run-${options.runId}-${options.runAttempt}-`));
  const artifacts = new Map<string, ArtifactResult>();
  const jobs: JobResult[] = [];
  const runStartedAt = iso();
  const emit = async (event: CiEvent): Promise<void> => {
    try {
      await options.onEvent(event);
    } catch (error) {
      options.logger.warn({ err: error, kind: event.kind, status: event.status }, 'executor event callback failed');
    }
  };
  const runEvent = (status: 'requested' | 'in_progress' | 'completed', conclusion: RunWorkflowResult['conclusion'] | null): CiEvent => ({
    kind: 'workflow_run', repoFullName: options.repo.fullName, runId: options.runId, runAttempt: options.runAttempt,
    headSha: options.sha, headBranch: options.ref.startsWith('refs/heads/') ? options.ref.slice(11) : null,
    name: workflow.name, path: options.workflow.path, event: options.eventName ?? 'push', status, conclusion,
    htmlUrl: runUrl(options), runStartedAt, updatedAt: iso(),
  });
  const home = options.hostEnv?.HOME ?? homedir();
  const baseEnv: Record<string, string> = {
    PATH: options.hostEnv?.PATH ?? DEFAULT_PATH,
    HOME: home,
    LANG: options.hostEnv?.LANG ?? 'C.UTF-8',
    USER: 'runner',
    SHELL: '/bin/bash',
    TERM: 'dumb',
  };
  options.logger.info({ runId: options.runId, jobs: workflow.jobs.length }, 'executor run started');
  await emit(runEvent('requested', null));
  await emit(runEvent('in_progress', null));
  const pool = semaphore(Math.max(1, options.maxParallelJobs ?? 4));
  const done = new Map<string, KeyOutcome>();
  const started = new Set<string>();
  const running = new Map<string, Promise<void>>();

  const context = {
    options, workflow, runDir, artifacts, baseEnv, runnerName, now, signal, pool, emit,
    pythonVersionsDirs: options.pythonVersionsDirs ?? [join(home, '.pyenv', 'versions')],
  };
  try {
    while (done.size < workflow.jobs.length) {
      for (const job of workflow.jobs) {
        if (started.has(job.key) || !job.needs.every((n) => done.has(n))) continue;
        started.add(job.key);
        const promise = runKey(context, job, done).then((outcome) => {
          jobs.push(...outcome.results);
          done.set(job.key, outcome.key);
          running.delete(job.key);
        });
        running.set(job.key, promise);
      }
      await Promise.race(running.values());
    }
  } finally {
    rmSync(runDir, { recursive: true, force: true });
  }
  const counted = [...done.values()];
  const conclusion = counted.some((o) => o.result === 'failure')
    ? 'failure'
    : signal.aborted || counted.some((o) => o.result === 'cancelled')
      ? 'cancelled'
      : 'success';
  await emit(runEvent('completed', conclusion));
  options.logger.info({ runId: options.runId, conclusion }, 'executor run completed');
  const order = new Map(workflow.jobs.map((j, i) => [j.key, i]));
  jobs.sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
  return { conclusion, jobs, artifacts: [...artifacts.values()] };
}

type RunContext = {
  options: RunWorkflowOptions;
  workflow: WorkflowDef;
  runDir: string;
  artifacts: Map<string, ArtifactResult>;
  baseEnv: Record<string, string>;
  runnerName: string;
  now: () => Date;
  signal: AbortSignal;
  pool: ReturnType<typeof semaphore>;
  emit: (event: CiEvent) => Promise<void>;
  pythonVersionsDirs: string[];
};

function notRun(ctx: RunContext, job: JobDef, conclusion: 'skipped' | 'cancelled'): JobResult {
  return {
    id: ctx.options.nextJobId(), key: job.key, name: job.name ?? job.key, matrix: null, conclusion, timedOut: false,
    steps: [], logPath: null, annotations: [], outputs: {}, summary: '', startedAt: null, completedAt: null,
  };
}

/** Runs every leg of one workflow job (`jobs.<key>`) and aggregates the result `needs` sees. */
async function runKey(ctx: RunContext, job: JobDef, done: Map<string, KeyOutcome>): Promise<{ key: KeyOutcome; results: JobResult[] }> {
  const { options } = ctx;
  const needs: Record<string, KeyOutcome> = Object.fromEntries(
    job.needs.map((n): [string, KeyOutcome] => [
      job.calledFrom !== undefined && n.startsWith(`${job.calledFrom.callerKey}/`) ? n.slice(job.calledFrom.callerKey.length + 1) : n,
      done.get(n) ?? { result: 'skipped', outputs: {} },
    ]),
  );
  const results = Object.values(needs).map((n) => n.result);
  const needsStatus = {
    failed: results.includes('failure'),
    cancelled: ctx.signal.aborted,
    blocked: results.some((r) => r !== 'success'),
  };
  const baseContexts = {
    github: { sha: options.sha, ref: options.ref, repository: options.repo.fullName, event_name: options.eventName ?? 'push', run_id: options.runId, run_attempt: String(options.runAttempt) },
    needs, inputs: {}, vars: {}, secrets: {},
  };
  const inputsSpec = job.calledFrom ?? job.aggregate;
  let combos: MatrixCombo[] | null;
  let ev: EvalEnv = { contexts: baseContexts, status: needsStatus };
  try {
    if (inputsSpec !== undefined) {
      const inputs = evaluateInputs(inputsSpec.inputs, { ...ev, contexts: { ...baseContexts, needs: needsOf(inputsSpec.inputsNeeds, done) } });
      ev = { ...ev, contexts: { ...baseContexts, inputs } };
    }
    if (job.aggregate !== undefined) return { key: aggregateOutcome(job.aggregate, done, ev), results: [] };
    if (!evaluateCondition(job.if, ev)) {
      return { key: { result: ctx.signal.aborted ? 'cancelled' : 'skipped', outputs: {} }, results: [notRun(ctx, job, ctx.signal.aborted ? 'cancelled' : 'skipped')] };
    }
    const rawMatrix = interpolateDeep(job.strategy.matrix, ev);
    combos = expandMatrix(typeof rawMatrix === 'string' ? JSON.parse(rawMatrix) : rawMatrix, job.key);
  } catch (error) {
    if (!isAppError(error) && !(error instanceof SyntaxError)) throw error;
    options.logger.warn({ job: job.key, err: error }, 'executor job setup failed');
    const failed = notRun(ctx, job, 'skipped');
    failed.conclusion = 'failure';
    failed.annotations.push({ level: 'error', message: (error as Error).message, stepNumber: 1 });
    return { key: { result: 'failure', outputs: {} }, results: [failed] };
  }
  const legs = combos ?? [null];
  const failFast = new AbortController();
  const onRunAbort = (): void => failFast.abort();
  ctx.signal.addEventListener('abort', onRunAbort, { once: true });
  if (ctx.signal.aborted) failFast.abort();
  const legResults = await Promise.all(
    legs.map(async (matrix, index) => {
      const legEv: EvalEnv = { contexts: { ...ev.contexts, matrix: matrix ?? {} }, status: needsStatus };
      const base = job.name === undefined ? (job.calledFrom?.calleeKey ?? job.key) : interpolate(job.name, legEv);
      const legName = matrixJobName(base, matrix, job.name?.includes('matrix.') === true);
      const name = job.calledFrom === undefined ? legName : `${job.calledFrom.callerName} / ${legName}`;
      const continueOnError = typeof job.continueOnError === 'boolean' ? job.continueOnError : interpolate(job.continueOnError, legEv).trim() === 'true';
      const labels = job.runsOn.map((label) => interpolate(label, legEv));
      const jobId = options.nextJobId();
      const jobEvent = (over: Partial<WorkflowJobEvent>): WorkflowJobEvent => ({
        kind: 'workflow_job', repoFullName: options.repo.fullName, runId: options.runId, runAttempt: options.runAttempt,
        jobId, headSha: options.sha, headBranch: options.ref.startsWith('refs/heads/') ? options.ref.slice(11) : null,
        name, status: 'queued', conclusion: null, startedAt: null, completedAt: null, runnerName: null,
        labels, steps: [], htmlUrl: runUrl(options, jobId), ...over,
      });
      await ctx.emit(jobEvent({}));
      await ctx.pool.acquire();
      try {
        if (failFast.signal.aborted) {
          const at = ctx.now().toISOString();
          const result: JobResult = { ...notRun(ctx, job, 'cancelled'), id: jobId, name, matrix };
          await ctx.emit(jobEvent({ status: 'completed', conclusion: 'cancelled', startedAt: at, completedAt: at }));
          return { result, continueOnError };
        }
        let announced = false;
        const input: JobInput = {
          workflow: job.calledFrom?.workflow ?? ctx.workflow, job, matrix,
          inputs: (ev.contexts.inputs ?? {}) as Record<string, ContextValue>, matrixIndex: index, matrixTotal: legs.length, jobId, name, needs,
          needsStatus, repo: options.repo, sha: options.sha, ref: options.ref, runId: options.runId,
          runAttempt: options.runAttempt, runNumber: options.runNumber ?? 1, eventName: options.eventName ?? 'push', jobDir: join(ctx.runDir, jobId),
          logPath: join(options.logsDir, `${jobId}.log`), outputCapBytes: options.outputCapBytes ?? 16 * 1024 * 1024,
          baseEnv: ctx.baseEnv, extraEnv: options.env ?? {}, pythonVersionsDirs: ctx.pythonVersionsDirs,
          artifactsDir: options.artifactsDir, artifacts: ctx.artifacts, killGraceMs: options.killGraceMs ?? 2000,
          cancelGraceMs: options.cancelGraceMs ?? 300_000,
          runnerName: ctx.runnerName, signal: failFast.signal, logger: options.logger, now: ctx.now,
          onStepsChanged: async (steps) => {
            if (announced) return;
            announced = true;
            const startedAt = steps[0]?.startedAt ?? ctx.now().toISOString();
            await ctx.emit(jobEvent({ status: 'in_progress', startedAt, runnerName: ctx.runnerName, steps }));
          },
        };
        const result = await runJob(input);
        await ctx.emit(jobEvent({
          status: 'completed', conclusion: result.conclusion, startedAt: result.startedAt, completedAt: result.completedAt,
          runnerName: ctx.runnerName, steps: result.steps,
        }));
        if (result.conclusion === 'failure' && !continueOnError && job.strategy.failFast && legs.length > 1) failFast.abort();
        return { result, continueOnError };
      } finally {
        ctx.pool.release();
      }
    }),
  );
  ctx.signal.removeEventListener('abort', onRunAbort);
  const effective = legResults.map(({ result, continueOnError }) =>
    result.conclusion === 'failure' && continueOnError ? 'success' : result.conclusion,
  );
  const result: KeyOutcome['result'] = effective.includes('failure')
    ? 'failure'
    : effective.includes('cancelled')
      ? 'cancelled'
      : 'success';
  const outputs = Object.assign({}, ...legResults.map((l) => l.result.outputs)) as Record<string, string>;
  return { key: { result, outputs }, results: legResults.map((l) => l.result) };
}

function needsOf(keys: string[], done: Map<string, KeyOutcome>): Record<string, ContextValue> {
  return Object.fromEntries(keys.map((k): [string, ContextValue] => [k, done.get(k) ?? { result: 'skipped', outputs: {} }]));
}

/** Evaluates reusable-workflow inputs; non-string YAML values keep their type. */
function evaluateInputs(inputs: Record<string, unknown>, ev: EvalEnv): Record<string, ContextValue> {
  const out: Record<string, ContextValue> = {};
  for (const [key, value] of Object.entries(inputs)) {
    if (typeof value === 'string') out[key] = interpolate(value, ev);
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) out[key] = value;
    else out[key] = JSON.stringify(value);
  }
  return out;
}

/** The result and outputs of a caller job, from the jobs of its inlined reusable workflow. */
function aggregateOutcome(aggregate: NonNullable<JobDef['aggregate']>, done: Map<string, KeyOutcome>, ev: EvalEnv): KeyOutcome {
  const called = Object.entries(aggregate.jobs).map(([calleeKey, key]) => [calleeKey, done.get(key) ?? { result: 'skipped' as const, outputs: {} }] as const);
  const results = called.map(([, o]) => o.result);
  const result: KeyOutcome['result'] = results.includes('failure')
    ? 'failure'
    : results.includes('cancelled')
      ? 'cancelled'
      : results.every((r) => r === 'skipped')
        ? 'skipped'
        : 'success';
  const jobsContext: Record<string, ContextValue> = Object.fromEntries(called.map(([k, o]): [string, ContextValue] => [k, { result: o.result, outputs: o.outputs }]));
  const outEv: EvalEnv = { ...ev, contexts: { ...ev.contexts, jobs: jobsContext } };
  const outputs: Record<string, string> = {};
  for (const [name, expression] of Object.entries(aggregate.outputs)) {
    try {
      outputs[name] = interpolate(expression, outEv);
    } catch (error) {
      if (!isAppError(error)) throw error;
    }
  }
  return { result, outputs };
}
