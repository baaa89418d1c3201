import { join } from 'node:path';
import type { WorkflowJobEvent } from '../../domain/ci-events.js';
import { isAppError } from '../../errors.js';
import type { ContextValue, EvalEnv } from '../expressions.js';
import { evaluateCondition, interpolate, interpolateDeep } from '../expressions.js';
import { runJob } from '../job-runner/index.js';
import type { JobInput } from '../job-runner/job-state.js';
import type { MatrixCombo } from '../matrix.js';
import { expandMatrix, matrixJobName } from '../matrix.js';
import type { JobResult } from '../types.js';
import type { JobDef } from '../workflow-model.js';
import type { KeyOutcome, RunContext } from './run-context.js';
import { runUrl } from './run-context.js';
import { sandboxPaths } from './sandbox-paths.js';

function notRun(ctx: RunContext, job: JobDef, conclusion: 'skipped' | 'cancelled'): JobResult {
  return {
    id: ctx.options.nextJobId(), key: job.key, name: job.name ?? job.key, matrix: null, conclusion, timedOut: false,
    steps: [], logPath: null, annotations: [], outputs: {}, summary: '', startedAt: null, completedAt: null,
  };
}

/** Runs every leg of one workflow job (`jobs.<key>`) and aggregates the result `needs` sees. */
export async function runKey(ctx: RunContext, job: JobDef, done: Map<string, KeyOutcome>): Promise<{ key: KeyOutcome; results: JobResult[] }> {
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
    github: { sha: options.sha, ref: options.ref, repository: options.repo.fullName, event_name: options.eventName ?? 'push', event: ctx.event, run_id: options.runId, run_attempt: String(options.runAttempt) },
    needs, inputs: ctx.inputs, vars: {}, secrets: {},
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
          needsStatus, repo: { gitDir: ctx.source, fullName: options.repo.fullName }, sha: options.sha, ref: options.ref, runId: options.runId,
          runAttempt: options.runAttempt, runNumber: options.runNumber ?? 1, eventName: options.eventName ?? 'push', event: ctx.event, jobDir: join(ctx.runDir, jobId),
          logPath: join(options.logsDir, `${jobId}.log`), outputCapBytes: options.outputCapBytes ?? 16 * 1024 * 1024,
          baseEnv: ctx.baseEnv, extraEnv: options.env ?? {}, pythonVersionsDirs: ctx.pythonVersionsDirs,
          artifactsDir: options.artifactsDir, artifacts: ctx.artifacts, killGraceMs: options.killGraceMs ?? 2000,
          cancelGraceMs: options.cancelGraceMs ?? 300_000,
          sandbox: ctx.sandbox, containers: ctx.containers, sandboxPaths: sandboxPaths(ctx), secretValues: ctx.secretValues,
          runnerName: ctx.runnerName, signal: failFast.signal, logger: options.logger, now: ctx.now,
          ...(options.onProcess !== undefined ? { onProcess: options.onProcess } : {}),
          ...(options.actions !== undefined ? { actions: options.actions } : {}),
          onStepsChanged: async (steps) => {
            if (announced) return;
            announced = true;
            const startedAt = steps[0]?.startedAt ?? ctx.now().toISOString();
            await ctx.emit(jobEvent({ status: 'in_progress', startedAt, runnerName: ctx.runnerName, steps }));
          },
        };
        const result = await runJob(input);
        await reportJobResult(ctx, result);
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

/** Hands a job's result to the caller before its completed event (a failing callback is logged, never fatal). */
async function reportJobResult(ctx: RunContext, result: JobResult): Promise<void> {
  try {
    await ctx.options.onJobResult?.(result);
  } catch (error) {
    ctx.options.logger.warn({ err: error, jobId: result.id }, 'executor job result callback failed');
  }
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
