import { isAppError } from '../../errors.js';
import type { ContextValue, EvalEnv } from '../expressions.js';
import { evaluateCondition, interpolate } from '../expressions.js';
import type { StepOutcomeValue } from '../job-runner/job-state.js';
import { runScript } from '../job-runner/run-script.js';
import type { StepExecution, StepRuntime } from '../job-runner/step-runtime.js';
import { actionVariables } from './node-action.js';
import type { UsesContext } from './run-action.js';
import { actionGithubContext, removeFiles, runUses, withFreshFiles } from './run-action.js';
import type { CompositeStep, PreparedAction } from './types.js';

type StepRecord = { outputs: Record<string, string>; outcome: StepOutcomeValue; conclusion: StepOutcomeValue };

const stringify = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/**
 * Runs a composite action's steps in order, as GitHub does: `inputs.*` and the composite's own `steps.*` in
 * expressions, `if:` (default `success()`, which sees the earlier failures of the composite), `continue-on-error`,
 * `run:` steps with their required shell, nested `uses:` (recursively), GITHUB_ENV/PATH changes flowing on to the
 * next steps and the job, and the action's `outputs.*.value` evaluated at the end into the step's outputs.
 */
export async function runComposite(rt: StepRuntime, action: PreparedAction, inputs: Record<string, string>, ctx: UsesContext): Promise<StepExecution> {
  const runs = action.manifest.runs;
  if (runs.using !== 'composite') throw new Error('not a composite action');
  const { state, input } = rt;
  const steps: Record<string, StepRecord> = {};
  let failed = false;
  const github = actionGithubContext(ctx.ev, action, ctx.stepId);
  const addedAtStart = { ...state.addedEnv };
  const delta = (): Record<string, string> =>
    Object.fromEntries(Object.entries(state.addedEnv).filter(([k, v]) => addedAtStart[k] !== v));
  const basePath = { ...input.baseEnv, ...input.extraEnv, ...state.sandboxEnv, ...rt.displayEnv }.PATH ?? '';
  const makeEv = (env: Record<string, string>): EvalEnv => ({
    ...ctx.ev,
    contexts: { ...ctx.ev.contexts, github, env, inputs, steps: steps as unknown as Record<string, ContextValue> },
    status: { ...state.status, failed: state.status.failed || failed },
  });
  for (const [index, step] of runs.steps.entries()) {
    const envContext = { ...rt.displayEnv, ...delta() };
    let record: StepRecord;
    try {
      record = await runCompositeStep(rt, action, step, index, envContext, basePath, makeEv, ctx);
    } catch (error) {
      if (!isAppError(error)) throw error;
      state.log.line(`##[error]${error.message}`);
      state.annotations.push({ level: 'error', message: error.message, stepNumber: rt.number });
      record = { outputs: {}, outcome: 'failure', conclusion: 'failure' };
    }
    if (step.id !== undefined) steps[step.id] = record;
    if (record.conclusion === 'failure') failed = true;
    if (record.outcome === 'cancelled') return { outcome: 'cancelled', timedOut: false };
  }
  const outEv = makeEv({ ...rt.displayEnv, ...delta() });
  for (const [name, expression] of Object.entries(action.manifest.outputs)) {
    try {
      rt.outputs[name] = interpolate(expression, outEv);
    } catch (error) {
      if (!isAppError(error)) throw error;
      state.log.line(`##[warning]Skip output '${name}': ${error.message}`);
    }
  }
  return { outcome: failed ? 'failure' : 'success', timedOut: false };
}

async function runCompositeStep(
  rt: StepRuntime,
  action: PreparedAction,
  step: CompositeStep,
  index: number,
  envContext: Record<string, string>,
  basePath: string,
  makeEv: (env: Record<string, string>) => EvalEnv,
  ctx: UsesContext,
): Promise<StepRecord> {
  const { state } = rt;
  if (!evaluateCondition(step.if, makeEv(envContext))) return { outputs: {}, outcome: 'skipped', conclusion: 'skipped' };
  const stepEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(step.env)) stepEnv[k] = interpolate(stringify(v), makeEv({ ...envContext, ...stepEnv }));
  const displayEnv = { ...envContext, ...stepEnv };
  const ev = makeEv(displayEnv);
  const name = step.name !== undefined ? interpolate(step.name, ev) : step.run !== undefined ? `Run ${index}` : `Run ${step.uses ?? ''}`;
  const child = withFreshFiles(rt, {
    name,
    displayEnv,
    env: {
      ...rt.env,
      ...displayEnv,
      ...actionVariables(rt, action, ctx.stepId),
      PATH: [...state.addedPath, basePath].filter((p) => p !== '').join(':'),
    },
  });
  let execution: StepExecution;
  try {
    if (step.run !== undefined) {
      const wd = step.workingDirectory === undefined ? undefined : interpolate(step.workingDirectory, ev);
      execution = await runScript(child, interpolate(step.run, ev), step.shell === undefined ? undefined : interpolate(step.shell, ev), wd);
    } else {
      const given = Object.fromEntries(Object.entries(step.with).map(([k, v]) => [k, interpolate(stringify(v), ev)]));
      execution = await runUses(child, step.uses ?? '', given, { ev, stepId: step.id, depth: ctx.depth + 1, key: step });
    }
  } finally {
    removeFiles(child);
  }
  const continueOnError = typeof step.continueOnError === 'boolean' ? step.continueOnError : interpolate(step.continueOnError, ev).trim() === 'true';
  const conclusion = execution.outcome === 'failure' && continueOnError ? 'success' : execution.outcome;
  return { outputs: child.outputs, outcome: execution.outcome, conclusion };
}
