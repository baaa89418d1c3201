import type { StepExecution, StepRuntime } from '../job-runner/step-runtime.js';
import { downloadArtifact, uploadArtifact } from './artifact-actions.js';
import { checkoutAction } from './checkout-action.js';
import { setupNode, setupPython } from './setup-actions.js';

export type BuiltinAction = (rt: StepRuntime, inputs: Record<string, string>) => Promise<StepExecution>;

/** The action name without its `@ref`, lower-cased: `actions/checkout`. */
export function actionName(uses: string): string {
  const at = uses.lastIndexOf('@');
  return (at > 0 ? uses.slice(0, at) : uses).toLowerCase();
}

const cacheAction: BuiltinAction = async (rt, inputs) => {
  rt.state.log.line(`Cache not found for input keys: ${inputs.key ?? ''}`);
  rt.outputs['cache-hit'] = 'false';
  return { outcome: 'success', timedOut: false };
};

const BUILTINS: Record<string, BuiltinAction> = {
  'actions/checkout': checkoutAction,
  'actions/setup-python': setupPython,
  'actions/setup-node': setupNode,
  'actions/upload-artifact': uploadArtifact,
  'actions/download-artifact': downloadArtifact,
  'actions/cache': cacheAction,
  'actions/cache/restore': cacheAction,
  'actions/cache/save': async () => ({ outcome: 'success', timedOut: false }),
};

/** The actions the executor runs with a built-in stand-in (lower case, without `@ref`); every other `uses:` fails. */
export const BUILTIN_ACTION_NAMES: readonly string[] = Object.keys(BUILTINS);

/** Runs a `uses:` step with its local stand-in, or fails it: the job result stays honest. */
export async function runBuiltinAction(rt: StepRuntime, uses: string, inputs: Record<string, string>): Promise<StepExecution> {
  const log = rt.state.log;
  log.line(`##[group]Run ${uses}`);
  const entries = Object.entries(inputs);
  if (entries.length > 0) {
    log.line('with:');
    for (const [k, v] of entries) log.line(`  ${k}: ${v}`);
  }
  const env = Object.entries(rt.displayEnv);
  if (env.length > 0) {
    log.line('env:');
    for (const [k, v] of env) log.line(`  ${k}: ${v}`);
  }
  log.line('##[endgroup]');
  const builtin = BUILTINS[actionName(uses)];
  if (builtin === undefined) {
    const message = `action not supported by the local executor: ${uses}`;
    log.line(`##[error]${message}`);
    rt.state.annotations.push({ level: 'error', message, stepNumber: rt.number });
    rt.state.infraError ??= { reason: 'unsupported_feature', message, stepNumber: rt.number };
    return { outcome: 'failure', timedOut: false };
  }
  return builtin(rt, inputs);
}

/** Fails the step for something this host or executor lacks (not the repository): the executor reports it as such. */
export function failStepForPlatform(rt: StepRuntime, reason: 'unsupported_feature' | 'runner_tooling_missing', message: string): StepExecution {
  rt.state.infraError ??= { reason, message, stepNumber: rt.number };
  return failStep(rt, message);
}

/** Logs an error line and records it as an annotation; returns a failed execution. */
export function failStep(rt: StepRuntime, message: string): StepExecution {
  rt.state.log.line(`##[error]${message}`);
  rt.state.annotations.push({ level: 'error', message, stepNumber: rt.number });
  return { outcome: 'failure', timedOut: false };
}
