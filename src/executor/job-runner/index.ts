import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StepOutcome } from '../../domain/ci-events.js';
import { isAppError, permanent } from '../../errors.js';
import { hasPreStage, prepareJobActions, runPreStage, runUses } from '../actions/index.js';
import { hashFiles } from '../artifacts.js';
import { writeEventFile } from '../event-payload/index.js';
import type { EvalEnv } from '../expressions.js';
import { evaluateCondition, interpolate } from '../expressions.js';
import { JobLog } from '../log-writer.js';
import { hostLauncher } from '../sandbox/index.js';
import type { JobResult } from '../types.js';
import type { StepDef } from '../workflow-model.js';
import { buildContexts, defaultVariables } from './contexts.js';
import type { JobInput, JobState } from './job-state.js';
import { killOrphans, runScript } from './run-script.js';
import type { StepExecution, StepRuntime } from './step-runtime.js';
import { createFileCommands } from './step-runtime.js';
import { hostEnvironment } from '../container/index.js';
import { CONTAINER_UNSUPPORTED, SERVICES_UNSUPPORTED } from '../workflow-model.js';
import { setUpJobEnvironment, usesContainers } from './container-setup.js';

const stringify = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

function evalEnv(input: JobInput, state: JobState, env: Record<string, string>): EvalEnv {
  return { contexts: buildContexts(input, state, env), status: state.status, hashFiles: (patterns) => hashFiles(state.workspace, patterns) };
}

/** Evaluates an env mapping in order; each value sees the variables before it. */
function evaluateEnvMap(map: Record<string, unknown>, base: Record<string, string>, make: (env: Record<string, string>) => EvalEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) out[k] = interpolate(stringify(v), make({ ...base }));
  return out;
}

function minutesToMs(value: number | string | undefined, ev: EvalEnv, fallback: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'number' ? value : Number(interpolate(value, ev));
  return Number.isFinite(n) && n > 0 ? n * 60_000 : fallback;
}

function flag(value: boolean | string, ev: EvalEnv): boolean {
  if (typeof value === 'boolean') return value;
  const text = interpolate(value, ev).trim();
  return text === 'true';
}

export function stepDisplayName(step: StepDef): string {
  if (step.name !== undefined) return step.name;
  if (step.run !== undefined) return `Run ${(step.run.split('\n').find((l) => l.trim() !== '') ?? '').trim()}`;
  return `Run ${step.uses ?? ''}`;
}

/** Runs one job (one matrix leg) to completion; never throws for step failures. */
export async function runJob(input: JobInput): Promise<JobResult> {
  const { job, now } = input;
  const repoName = input.repo.fullName.split('/')[1] ?? 'repo';
  const workspace = join(input.jobDir, 'work', repoName, repoName);
  const temp = join(input.jobDir, 'temp');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(join(temp, '_runner_file_commands'), { recursive: true });
  writeEventFile(temp, input.event);
  const log = new JobLog({ path: input.logPath, capBytes: input.outputCapBytes, now, masks: input.secretValues });
  const state: JobState = {
    log, workspace, temp, addedEnv: {}, addedPath: [], steps: {}, annotations: [], summary: '',
    status: { failed: false, cancelled: false }, postSteps: [], actions: new Map(), pids: [],
    jobDir: input.jobDir, launcher: hostLauncher(input.sandbox), sandbox: null,
    environment: hostEnvironment({ jobDir: input.jobDir, workspace, temp, home: input.baseEnv.HOME ?? '' }), sandboxEnv: {}, infraError: null, timedOutSteps: [],
  };
  const iso = (): string => now().toISOString();
  const startedAt = iso();
  const steps: StepOutcome[] = [
    { number: 1, name: 'Set up job', status: 'in_progress', conclusion: null, startedAt, completedAt: null },
    ...job.steps.map((s, i): StepOutcome => ({ number: i + 2, name: stepDisplayName(s), status: 'queued', conclusion: null, startedAt: null, completedAt: null })),
  ];
  const publish = async (): Promise<void> => {
    await input.onStepsChanged(steps.map((s) => ({ ...s })));
  };
  const controller = new AbortController();
  const onRunAbort = (): void => controller.abort();
  if (input.signal.aborted) controller.abort();
  else input.signal.addEventListener('abort', onRunAbort, { once: true });
  let timedOut = false;
  const jobEvalBase = (env: Record<string, string>): EvalEnv => evalEnv(input, state, env);
  let jobTimeoutMs = 360 * 60_000;
  let workflowEnv: Record<string, string> = {};
  let jobEnv: Record<string, string> = {};

  log.line(`Current runner version: '2.322.0'`);
  log.line(`Runner name: '${input.runnerName}'`);
  log.line('##[group]Operating System');
  log.line(usesContainers(input) ? `Linux (container: ${input.containers?.runtime?.kind ?? 'unavailable'})` : 'Linux (host, no container)');
  log.line('##[endgroup]');
  log.line('##[group]Runner Image');
  log.line('Image: ci-replay-local');
  log.line('##[endgroup]');
  log.line('Secret source: None');
  log.line('Prepare workflow directory');
  log.line('Prepare all required actions');
  // services and container jobs are unsupported only where jobs run on the host
  const unsupported = usesContainers(input) ? job.unsupported.filter((r) => r !== SERVICES_UNSUPPORTED && r !== CONTAINER_UNSUPPORTED) : job.unsupported;
  let setupError: string | null = unsupported[0] ?? null;
  if (setupError !== null) state.infraError = { reason: 'unsupported_feature', message: setupError, stepNumber: 1 };
  if (setupError === null) {
    try {
      workflowEnv = evaluateEnvMap(input.workflow.env, {}, jobEvalBase);
      jobEnv = evaluateEnvMap(job.env, workflowEnv, (env) => jobEvalBase({ ...workflowEnv, ...env }));
      jobTimeoutMs = minutesToMs(job.timeoutMinutes, jobEvalBase({ ...workflowEnv, ...jobEnv }), jobTimeoutMs);
    } catch (error) {
      if (!isAppError(error)) throw error;
      setupError = error.message;
      state.infraError = { reason: 'job_setup_failed', message: setupError, stepNumber: 1 };
    }
  }
  if (setupError === null) setupError = await prepareJobActions(input, state);
  if (setupError === null) {
    const setupEnv = jobEvalBase({ ...workflowEnv, ...jobEnv });
    setupError = await setUpJobEnvironment(input, state, workspace, (value) => interpolate(value, setupEnv));
  }
  for (const reason of unsupported.slice(1)) log.line(`##[error]${reason}`);
  if (setupError !== null) {
    log.line(`##[error]${setupError}`);
    state.annotations.push({ level: 'error', message: setupError, stepNumber: 1 });
  }
  log.line(`Complete job name: ${input.name}`);
  const setup = steps[0];
  if (setup !== undefined) {
    setup.status = 'completed';
    setup.conclusion = setupError === null ? 'success' : 'failure';
    setup.completedAt = iso();
  }
  // one key per step, shared by its action's stages (pre, main, post: the action's saved state)
  const stepKeys = job.steps.map(() => ({}));
  // JavaScript actions' `pre` stages run after "Set up job", before the first step ("Pre Run owner/repo@ref")
  const preSteps = setupError === null ? job.steps.flatMap((step, index) => (step.uses !== undefined && hasPreStage({ state }, step.uses) ? [{ step, index }] : [])) : [];
  steps.splice(1, 0, ...preSteps.map(({ step }): StepOutcome => ({ number: 0, name: `Pre ${stepDisplayName(step)}`, status: 'queued', conclusion: null, startedAt: null, completedAt: null })));
  steps.forEach((s, i) => {
    s.number = i + 1;
  });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, jobTimeoutMs);
  await publish();

  try {
    for (const [position, { step, index }] of preSteps.entries()) {
      const outcome = steps[position + 1];
      if (outcome === undefined) continue;
      state.status.cancelled = controller.signal.aborted;
      const baseEnv = { ...workflowEnv, ...jobEnv, ...state.addedEnv };
      const pre = await runStep(input, state, step, outcome, baseEnv, controller.signal, publish, { stage: 'pre', key: stepKeys[index] ?? {} });
      if (pre.record.conclusion === 'failure') state.status.failed = true;
      await publish();
    }
    for (const [index, step] of job.steps.entries()) {
      const outcome = steps[index + 1 + preSteps.length];
      if (outcome === undefined) continue;
      if (setupError !== null) {
        Object.assign(outcome, { status: 'completed', conclusion: 'skipped', startedAt: iso(), completedAt: iso() });
        continue;
      }
      state.status.cancelled = controller.signal.aborted;
      const baseEnv = { ...workflowEnv, ...jobEnv, ...state.addedEnv };
      const execution = await runStep(input, state, step, outcome, baseEnv, controller.signal, publish, { stage: 'main', key: stepKeys[index] ?? {} });
      if (step.id !== undefined) state.steps[step.id] = execution.record;
      if (execution.record.conclusion === 'failure') state.status.failed = true;
      await publish();
    }
  } catch (error) {
    // an executor fault (not a step failure): leave no process behind, then let the run report it
    killOrphans(state.pids);
    await state.sandbox?.stop().catch(() => undefined);
    log.close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  input.signal.removeEventListener('abort', onRunAbort);
  state.status.cancelled = controller.signal.aborted;

  for (const post of [...state.postSteps].reverse()) {
    const at = iso();
    const outcome: StepOutcome = { number: steps.length + 1, name: post.name, status: 'completed', conclusion: 'success', startedAt: at, completedAt: at };
    steps.push(outcome);
    for (const line of post.lines) log.line(line);
    if (post.run === undefined) continue;
    const signal = controller.signal.aborted ? AbortSignal.timeout(input.cancelGraceMs) : controller.signal;
    const conclusion = await post.run({ number: outcome.number, signal, ev: jobEvalBase({ ...workflowEnv, ...jobEnv, ...state.addedEnv }) });
    Object.assign(outcome, { conclusion, completedAt: iso() });
    if (conclusion === 'failure') state.status.failed = true;
  }
  const outputs: Record<string, string> = {};
  const outEnv = jobEvalBase({ ...workflowEnv, ...jobEnv, ...state.addedEnv });
  for (const [key, expression] of Object.entries(job.outputs)) {
    try {
      outputs[key] = interpolate(expression, outEnv);
    } catch (error) {
      if (!isAppError(error)) throw error;
      log.line(`##[warning]Skip output '${key}': ${error.message}`);
    }
  }
  const completeStart = iso();
  if (timedOut) {
    const minutes = jobTimeoutMs / 60_000;
    const message = `The job running on runner ${input.runnerName} has exceeded the maximum execution time of ${minutes} minutes.`;
    log.forceLine(`##[error]${message}`);
    state.annotations.push({ level: 'error', message, stepNumber: steps.length + 1 });
  }
  log.forceLine('Cleaning up orphan processes');
  killOrphans(state.pids);
  await state.sandbox?.stop();
  log.close();
  const completedAt = iso();
  steps.push({ number: steps.length + 1, name: 'Complete job', status: 'completed', conclusion: 'success', startedAt: completeStart, completedAt });
  const conclusion = state.status.cancelled ? 'cancelled' : state.status.failed || setupError !== null ? 'failure' : 'success';
  return {
    id: input.jobId, key: job.key, name: input.name, matrix: input.matrix, conclusion, timedOut, timedOutSteps: state.timedOutSteps, steps,
    logPath: input.logPath, annotations: state.annotations, outputs, summary: log.mask(state.summary), startedAt, completedAt,
    ...(state.infraError !== null ? { infraError: state.infraError } : {}),
  };
}

async function runStep(
  input: JobInput,
  state: JobState,
  step: StepDef,
  outcome: StepOutcome,
  baseEnv: Record<string, string>,
  signal: AbortSignal,
  publish: () => Promise<void>,
  stage: { stage: 'pre' | 'main'; key: object },
): Promise<{ record: JobState['steps'][string] }> {
  const { log } = state;
  const iso = (): string => input.now().toISOString();
  const ev = evalEnv(input, state, baseEnv);
  let run: boolean;
  try {
    // a `pre` stage has its own condition (`pre-if`, default always()), checked when it runs
    run = stage.stage === 'pre' || evaluateCondition(step.if, ev);
  } catch (error) {
    if (!isAppError(error)) throw error;
    Object.assign(outcome, { status: 'completed', conclusion: 'failure', startedAt: iso(), completedAt: iso() });
    log.line(`##[error]The step '${outcome.name}' has an invalid if expression: ${error.message}`);
    return { record: { outputs: {}, outcome: 'failure', conclusion: 'failure' } };
  }
  if (!run) {
    Object.assign(outcome, { status: 'completed', conclusion: 'skipped', startedAt: iso(), completedAt: iso() });
    return { record: { outputs: {}, outcome: 'skipped', conclusion: 'skipped' } };
  }
  Object.assign(outcome, { status: 'in_progress', startedAt: iso() });
  await publish();
  const files = createFileCommands(state.temp);
  for (const file of Object.values(files)) state.sandbox?.ownFile(file);
  const rt: StepRuntime = {
    input, state, number: outcome.number, name: outcome.name, env: {}, displayEnv: {}, outputs: {},
    signal: state.status.cancelled ? AbortSignal.timeout(input.cancelGraceMs) : signal, timeoutMs: Number.POSITIVE_INFINITY, files, stopToken: null,
  };
  let execution: StepExecution;
  let continueOnError = false;
  let timeoutMinutes = 0;
  try {
    rt.name = step.name !== undefined ? interpolate(step.name, ev) : stepDisplayName({ ...step, run: step.run === undefined ? undefined : interpolate(step.run, ev) });
    if (stage.stage === 'pre') rt.name = `Pre ${rt.name}`;
    outcome.name = rt.name;
    const stepEnv = evaluateEnvMap(step.env, baseEnv, (env) => evalEnv(input, state, { ...env }));
    const displayEnv = { ...baseEnv, ...stepEnv };
    const merged = { ...input.baseEnv, ...input.extraEnv, ...state.sandboxEnv, ...defaultVariables(input, state, files), ...displayEnv };
    merged.PATH = [...state.addedPath, merged.PATH ?? ''].filter((p) => p !== '').join(':');
    rt.env = merged;
    rt.displayEnv = displayEnv;
    const stepEv = evalEnv(input, state, displayEnv);
    continueOnError = flag(step.continueOnError, stepEv);
    rt.timeoutMs = minutesToMs(step.timeoutMinutes, stepEv, Number.POSITIVE_INFINITY);
    timeoutMinutes = rt.timeoutMs / 60_000;
    if (state.sandbox !== null && !state.sandbox.alive()) {
      const message = 'The step sandbox of this job ended unexpectedly; the step cannot run.';
      state.infraError ??= { reason: 'sandbox_failed', message, stepNumber: outcome.number };
      throw permanent('sandbox_lost', message);
    }
    if (step.run !== undefined) {
      const wd = step.workingDirectory ?? input.job.defaults.workingDirectory ?? input.workflow.defaults.workingDirectory;
      const shell = step.shell ?? input.job.defaults.shell ?? input.workflow.defaults.shell;
      execution = await runScript(rt, interpolate(step.run, stepEv), shell, wd === undefined ? undefined : interpolate(wd, stepEv));
    } else {
      const inputs = Object.fromEntries(Object.entries(step.with).map(([k, v]) => [k, interpolate(stringify(v), stepEv)]));
      const usesContext = { ev: stepEv, stepId: step.id, depth: 1, key: stage.key };
      if (stage.stage === 'pre') {
        const pre = await runPreStage(rt, step.uses ?? '', inputs, usesContext);
        if (pre === null) {
          Object.assign(outcome, { status: 'completed', conclusion: 'skipped', completedAt: iso() });
          for (const file of Object.values(files)) rmSync(file, { force: true });
          return { record: { outputs: {}, outcome: 'skipped', conclusion: 'skipped' } };
        }
        execution = pre;
      } else execution = await runUses(rt, step.uses ?? '', inputs, usesContext);
    }
  } catch (error) {
    if (!isAppError(error)) throw error;
    log.line(`##[error]${error.message}`);
    state.annotations.push({ level: 'error', message: error.message, stepNumber: outcome.number });
    execution = { outcome: 'failure', timedOut: false };
  }
  for (const file of Object.values(files)) rmSync(file, { force: true });
  if (execution.timedOut) {
    log.line(`##[error]The action '${rt.name}' has timed out after ${timeoutMinutes} minutes.`);
    state.timedOutSteps.push(outcome.number);
  }
  const conclusion = execution.outcome === 'failure' && continueOnError ? 'success' : execution.outcome;
  Object.assign(outcome, { status: 'completed', conclusion, completedAt: iso() });
  return { record: { outputs: rt.outputs, outcome: execution.outcome, conclusion } };
}
