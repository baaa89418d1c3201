import { createHash } from 'node:crypto';
import { failStep, failStepForPlatform } from '../builtin-actions/index.js';
import type { EvalEnv } from '../expressions.js';
import { interpolate } from '../expressions.js';
import type { StepExecution, StepRuntime } from '../job-runner/step-runtime.js';
import { applyFileCommands, handleOutputLine } from '../job-runner/step-runtime.js';
import { spawnProcess } from '../spawn-process.js';
import { inputEnv } from './inputs.js';
import { actionVariables } from './node-action.js';
import type { PreparedAction } from './types.js';

/** What a Docker step runs: an action's `runs` (image, args, entrypoint, env) or a `docker://` step's `with:`. */
export interface DockerRun {
  /** `docker://image` or a Dockerfile path inside the action. */
  image: string;
  args: string[];
  entrypoint?: string | undefined;
  env: Record<string, string>;
}

/** The tag a Docker action's Dockerfile is built as: one per action commit and folder. */
export function dockerActionTag(action: PreparedAction): string {
  const where = createHash('sha256').update(action.ref.kind === 'local' ? `local:${action.dir}` : `${action.ref.owner}/${action.ref.repo}/${action.ref.path}`).digest('hex').slice(0, 12);
  return `ci-replay-action/${where}:${action.sha.slice(0, 12)}`;
}

/**
 * Runs a Docker container action (or a `docker://` step) as GitHub does: the image is built from the action's
 * Dockerfile ("Build container for action use", no network during the build) or used as named (no registry is
 * contacted: it must be present), then run next to the job container in its network namespace with the job
 * directory bound at its own path, INPUT_* and the GITHUB_* variables and files. Needs the job's container runtime.
 */
export async function runDockerStep(
  rt: StepRuntime,
  action: PreparedAction | null,
  run: DockerRun,
  inputs: Record<string, string>,
  ev: EvalEnv,
  stepId: string | undefined,
): Promise<StepExecution> {
  const environment = rt.state.environment;
  const { log } = rt.state;
  if (environment.kind !== 'container') {
    return failStepForPlatform(rt, 'unsupported_feature', `Docker container actions are not supported by the local executor on the host (no container runtime): ${action?.ref.uses ?? run.image}`);
  }
  let image: string;
  if (run.image.startsWith('docker://')) image = run.image.slice('docker://'.length);
  else if (action === null) return failStep(rt, `invalid image '${run.image}'`);
  else {
    image = dockerActionTag(action);
    log.line(`##[group]Build container for action use: '${action.dir}/${run.image}'.`);
    const built = await environment.buildImage(action.dir, run.image, image);
    log.line('##[endgroup]');
    if (!built.ok) return failStepForPlatform(rt, 'runner_tooling_missing', built.message);
  }
  const inputEv: EvalEnv = { ...ev, contexts: { ...ev.contexts, inputs } };
  const env = {
    ...rt.env,
    ...Object.fromEntries(Object.entries(run.env).map(([k, v]) => [k, interpolate(v, inputEv)])),
    ...inputEnv(inputs),
    ...(action === null ? {} : actionVariables(rt, action, stepId)),
  };
  const command = environment.imageCommand({
    image,
    ...(run.entrypoint !== undefined ? { entrypoint: run.entrypoint } : {}),
    args: run.args.map((a) => interpolate(a, inputEv)),
    env,
    workdir: rt.state.workspace,
  });
  if (command === null) return failStepForPlatform(rt, 'unsupported_feature', `This job's environment cannot run Docker actions: ${action?.ref.uses ?? run.image}`);
  const result = await spawnProcess({
    ...command,
    timeoutMs: rt.timeoutMs,
    signal: rt.signal,
    killGraceMs: rt.input.killGraceMs,
    onLine: (line) => handleOutputLine(rt, line),
    onSpawn: (pid) => {
      rt.state.pids.push(pid);
      rt.input.onProcess?.(pid);
    },
  });
  const filesOk = applyFileCommands(rt);
  if (result.spawnError !== null) return failStep(rt, result.spawnError);
  if (result.cancelled) {
    log.line('##[error]The operation was canceled.');
    return { outcome: 'cancelled', timedOut: false };
  }
  if (result.timedOut) return { outcome: 'failure', timedOut: true };
  if (result.exitCode !== 0) return failStep(rt, `Docker run failed with exit code ${result.exitCode ?? 1}`);
  return { outcome: filesOk ? 'success' : 'failure', timedOut: false };
}
