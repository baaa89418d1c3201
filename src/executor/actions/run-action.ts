import { rmSync } from 'node:fs';
import { isAppError } from '../../errors.js';
import type { ContextValue, EvalEnv } from '../expressions.js';
import { evaluateCondition, interpolate } from '../expressions.js';
import type { StepOutcomeValue } from '../job-runner/job-state.js';
import { runBuiltinInSandbox } from '../job-runner/sandbox-setup.js';
import type { StepExecution, StepRuntime } from '../job-runner/step-runtime.js';
import { createFileCommands } from '../job-runner/step-runtime.js';
import { runComposite } from './composite-action.js';
import { runDockerStep } from './docker-action.js';
import { logActionHeader, resolveInputs } from './inputs.js';
import { runNodeStage } from './node-action.js';
import { isBuiltinAction, prepareLocalAction } from './prepare.js';
import type { PreparedAction } from './types.js';
import { actionRefName, actionRepository, defaultActionId } from './types.js';

/** Where a `uses:` runs: the caller's expression contexts, the step's id, and how deep in composite actions. */
export interface UsesContext {
  ev: EvalEnv;
  stepId?: string | undefined;
  depth: number;
  /** Identifies the step across its stages (pre, main, post share the action's saved state). */
  key?: object;
}

const isLocalUses = (uses: string): boolean => uses.trim().startsWith('./') || uses.trim().startsWith('../');

const savedStates = new WeakMap<object, Record<string, string>>();

function savedState(key: object | undefined): Record<string, string> {
  if (key === undefined) return {};
  let saved = savedStates.get(key);
  if (saved === undefined) {
    saved = {};
    savedStates.set(key, saved);
  }
  return saved;
}

/** The files a stage of an action writes GITHUB_ENV/OUTPUT/PATH/STEP_SUMMARY to, and the env that points at them. */
export function withFreshFiles(rt: StepRuntime, changes: Partial<StepRuntime>): StepRuntime {
  const files = createFileCommands(rt.state.temp);
  for (const file of Object.values(files)) rt.state.sandbox?.ownFile(file);
  const fileEnv = { GITHUB_ENV: files.env, GITHUB_OUTPUT: files.output, GITHUB_PATH: files.path, GITHUB_STEP_SUMMARY: files.summary };
  return { ...rt, outputs: {}, stopToken: null, ...changes, files, env: { ...(changes.env ?? rt.env), ...fileEnv } };
}

export const removeFiles = (rt: StepRuntime): void => {
  for (const file of Object.values(rt.files)) rmSync(file, { force: true });
};

function inputsOf(rt: StepRuntime, action: PreparedAction, given: Record<string, string>, ctx: UsesContext): Record<string, string> {
  return resolveInputs(rt, action.manifest, given, (text) => interpolate(text, ctx.ev));
}

/** Whether the step's action has a `pre` stage to run after "Set up job". */
export function hasPreStage(rt: Pick<StepRuntime, 'state'>, uses: string): boolean {
  const action = rt.state.actions.get(uses);
  return action !== undefined && action.manifest.runs.using === 'node' && action.manifest.runs.pre !== undefined;
}

/** Runs the `pre` stage of a JavaScript action ("Pre Run owner/repo@ref"); null when its `pre-if` is false. */
export async function runPreStage(rt: StepRuntime, uses: string, given: Record<string, string>, ctx: UsesContext): Promise<StepExecution | null> {
  const action = rt.state.actions.get(uses);
  if (action === undefined || action.manifest.runs.using !== 'node' || action.manifest.runs.pre === undefined) return null;
  if (!evaluateCondition(action.manifest.runs.preIf ?? 'always()', ctx.ev)) return null;
  const inputs = inputsOf(rt, action, given, ctx);
  logActionHeader(rt, uses, inputs);
  return runNodeStage(rt, action, 'pre', inputs, savedState(ctx.key), ctx.stepId);
}

/**
 * Runs a `uses:` step: the built-in stand-in for its name, else the action prepared at "Set up job" (JavaScript or
 * composite), else the built-in dispatcher's "not supported" failure. A JavaScript action's `post` stage is queued
 * for the end of the job ("Post <step name>", in reverse order of registration).
 */
export async function runUses(rt: StepRuntime, uses: string, given: Record<string, string>, ctx: UsesContext): Promise<StepExecution> {
  let action = isBuiltinAction(uses) ? undefined : rt.state.actions.get(uses);
  if (isLocalUses(uses)) {
    // read from the workspace now (after checkout), as GitHub does: a step before may have changed it
    const local = await prepareLocalAction(rt.input, rt.state, uses.trim(), rt.number);
    if ('error' in local) {
      logActionHeader(rt, uses, given);
      rt.state.log.line(`##[error]${local.error}`);
      return { outcome: 'failure', timedOut: false };
    }
    action = local.action;
  }
  if (action === undefined && uses.startsWith('docker://') && rt.state.environment.kind === 'container') {
    logActionHeader(rt, uses, given);
    const args = given.args === undefined || given.args.trim() === '' ? [] : given.args.trim().split(/\s+/);
    return runDockerStep(rt, null, { image: uses, args, entrypoint: given.entrypoint, env: {} }, given, ctx.ev, ctx.stepId);
  }
  if (action === undefined) return runBuiltinInSandbox(rt, uses, given);
  const inputs = inputsOf(rt, action, given, ctx);
  logActionHeader(rt, uses, inputs);
  const runs = action.manifest.runs;
  if (runs.using === 'composite') return runComposite(rt, action, inputs, ctx);
  if (runs.using === 'docker') {
    return runDockerStep(rt, action, { image: runs.image, args: runs.args, entrypoint: runs.entrypoint, env: runs.env }, inputs, ctx.ev, ctx.stepId);
  }
  const saved = savedState(ctx.key ?? {});
  const execution = await runNodeStage(rt, action, 'main', inputs, saved, ctx.stepId);
  if (runs.post !== undefined) registerPost(rt, action, inputs, saved, ctx.stepId);
  return execution;
}

function registerPost(rt: StepRuntime, action: PreparedAction, inputs: Record<string, string>, saved: Record<string, string>, stepId: string | undefined): void {
  const runs = action.manifest.runs;
  if (runs.using !== 'node') return;
  const name = `Post ${rt.name}`;
  rt.state.postSteps.push({
    name,
    lines: [],
    run: async ({ number, signal, ev }) => {
      let run: boolean;
      try {
        run = evaluateCondition(runs.postIf ?? 'always()', ev);
      } catch (error) {
        if (!isAppError(error)) throw error;
        rt.state.log.line(`##[error]The step '${name}' has an invalid post-if expression: ${error.message}`);
        return 'failure';
      }
      if (!run) return 'skipped';
      rt.state.log.line('Post job cleanup.');
      const post = withFreshFiles(rt, { number, name, signal });
      const execution = await runNodeStage(post, action, 'post', inputs, saved, stepId);
      removeFiles(post);
      return execution.outcome satisfies StepOutcomeValue;
    },
  });
}

/** `github` with the running action's fields. */
export function actionGithubContext(ev: EvalEnv, action: PreparedAction, stepId: string | undefined): Record<string, ContextValue> {
  const github = ev.contexts.github;
  const base = github !== null && typeof github === 'object' && !Array.isArray(github) ? github : {};
  return {
    ...base,
    action: stepId ?? defaultActionId(action),
    action_path: action.dir,
    action_ref: actionRefName(action),
    action_repository: actionRepository(action),
  };
}
