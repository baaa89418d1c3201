import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isAppError } from '../../errors.js';
import { parseKeyValueFile } from '../env-files.js';
import type { StepExecution, StepRuntime } from '../job-runner/step-runtime.js';
import { applyFileCommands } from '../job-runner/step-runtime.js';
import { failStepForPlatform } from '../builtin-actions/index.js';
import { readJobFile } from '../sandbox/index.js';
import { inputEnv } from './inputs.js';
import { runJobProcess } from './job-process.js';
import type { PreparedAction } from './types.js';
import { actionRefName, actionRepository, defaultActionId } from './types.js';

export type ActionStage = 'pre' | 'main' | 'post';

/** The variables GitHub gives every action process (GITHUB_ACTION_PATH, GITHUB_ACTION, …). */
export function actionVariables(rt: StepRuntime, action: PreparedAction, stepId: string | undefined): Record<string, string> {
  return {
    GITHUB_ACTION: stepId ?? defaultActionId(action),
    GITHUB_ACTION_PATH: action.dir,
    GITHUB_ACTION_REPOSITORY: actionRepository(action),
    GITHUB_ACTION_REF: actionRefName(action),
  };
}

/**
 * Runs one stage (pre, main or post) of a JavaScript action with the job's `node`: INPUT_* variables, the
 * GITHUB_* files, GITHUB_STATE (and the deprecated `::save-state::`) collected into `saved` for later stages, whose
 * values they get as STATE_*. A non-zero exit fails the step without a line of its own, as on GitHub.
 */
export async function runNodeStage(
  rt: StepRuntime,
  action: PreparedAction,
  stage: ActionStage,
  inputs: Record<string, string>,
  saved: Record<string, string>,
  stepId: string | undefined,
): Promise<StepExecution> {
  const runs = action.manifest.runs;
  if (runs.using !== 'node') throw new Error('not a JavaScript action');
  const script = stage === 'main' ? runs.main : stage === 'pre' ? runs.pre : runs.post;
  if (script === undefined) return { outcome: 'success', timedOut: false };
  const stateFile = join(rt.state.temp, '_runner_file_commands', `save_state_${randomUUID()}`);
  writeFileSync(stateFile, '');
  rt.state.sandbox?.ownFile(stateFile);
  const env: Record<string, string> = {
    ...rt.env,
    ...inputEnv(inputs),
    ...Object.fromEntries(Object.entries(saved).map(([k, v]) => [`STATE_${k}`, v])),
    ...actionVariables(rt, action, stepId),
    GITHUB_STATE: stateFile,
  };
  const node = rt.state.environment.node;
  if (node === null) return failStepForPlatform(rt, 'runner_tooling_missing', `No Node.js to run the JavaScript action ${action.ref.uses} (${runs.version}) in this job's environment`);
  const result = await runJobProcess({ ...rt, savedState: saved }, { file: node, args: [resolve(action.dir, script)], cwd: rt.state.workspace, env });
  let stateOk = true;
  try {
    for (const [k, v] of parseKeyValueFile(readJobFile(null, stateFile, 64 * 1024 * 1024), 'GITHUB_STATE')) saved[k] = v;
  } catch (error) {
    if (!isAppError(error)) throw error;
    rt.state.log.line(`##[error]${error.message}`);
    stateOk = false;
  }
  rmSync(stateFile, { force: true });
  const filesOk = applyFileCommands(rt);
  if (result.spawnError !== null) {
    rt.state.log.line(`##[error]${result.spawnError}`);
    return { outcome: 'failure', timedOut: false };
  }
  if (result.cancelled) {
    rt.state.log.line('##[error]The operation was canceled.');
    return { outcome: 'cancelled', timedOut: false };
  }
  if (result.timedOut) return { outcome: 'failure', timedOut: true };
  if (result.exitCode !== 0) return { outcome: 'failure', timedOut: false };
  return { outcome: filesOk && stateOk ? 'success' : 'failure', timedOut: false };
}
