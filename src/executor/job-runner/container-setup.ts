import { join } from 'node:path';
import type { ContainerSpec, ServiceSpec } from '../container/index.js';
import { containerEnvironment, hostEnvironment, parseContainerSpec, parseServices, runnerImageFor, startJobContainer } from '../container/index.js';
import type { JobInput, JobState } from './job-state.js';
import { setUpSandbox } from './sandbox-setup.js';

const CONTAINER_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Whether this job's steps will run in a container (the run has a runtime, or requires one). */
export function usesContainers(input: JobInput): boolean {
  return input.containers !== undefined && (input.containers.runtime !== null || input.containers.unavailable !== null);
}

/**
 * The "Set up job" part that decides where steps run: with a container runtime, the job's container (its
 * `container:` image or the runner image of its labels) and its `services:`; otherwise the host step sandbox.
 * Returns the setup error that fails the job (recorded as the job's infraError).
 */
export async function setUpJobEnvironment(input: JobInput, state: JobState, workspace: string, evaluate: (value: string) => string): Promise<string | null> {
  const plan = input.containers;
  if (plan === undefined || !usesContainers(input)) {
    const error = await setUpSandbox(input, state, workspace);
    state.environment = hostEnvironment({ jobDir: input.jobDir, workspace, temp: state.temp, home: state.sandboxEnv.HOME ?? input.baseEnv.HOME ?? '' });
    return error;
  }
  const { log } = state;
  const fail = (reason: string, message: string): string => {
    state.infraError ??= { reason, message, stepNumber: 1 };
    return message;
  };
  if (plan.runtime === null) return fail('sandbox_unavailable', plan.unavailable ?? 'no container runtime');
  let container: ContainerSpec | null;
  let services: ServiceSpec[];
  try {
    container = parseContainerSpec(input.job.container, evaluate);
    services = parseServices(input.job.services, evaluate);
  } catch (error) {
    return fail('job_setup_failed', `The job container could not be set up: ${(error as Error).message}`);
  }
  const notes = [...plan.notes];
  const pathDirs = new Set([input.baseEnv.PATH, input.extraEnv.PATH].flatMap((p) => (p ?? '').split(':')));
  const readOnly = input.sandboxPaths.readOnly.filter((dir) => !pathDirs.has(dir) && dir !== '/etc/resolv.conf');
  let started;
  try {
    started = await startJobContainer({
      runtime: plan.runtime, settings: plan.settings, limits: input.sandbox.settings.limits, runAsUid: input.sandbox.settings.runAsUid,
      runAsGid: input.sandbox.settings.runAsGid, jobId: input.jobId,
      dirs: { jobDir: input.jobDir, workspace, temp: state.temp, privateDir: join(input.jobDir, '..', `${input.jobId}.container`) },
      runnerImage: runnerImageFor(input.job.runsOn, plan.settings), container, services, readOnly,
      gitSafeDirectories: input.sandboxPaths.gitSafeDirectories, note: (line) => notes.push(line),
    });
  } catch (error) {
    input.logger.warn({ err: error, jobId: input.jobId }, 'executor job container could not start');
    log.line('##[group]Job container');
    for (const note of notes) log.line(note);
    log.line('##[endgroup]');
    return fail('job_setup_failed', `The job container could not be set up: ${(error as Error).message}`);
  }
  state.sandbox = started;
  state.launcher = started;
  state.environment = containerEnvironment(started, { jobDir: input.jobDir, workspace, temp: state.temp, home: started.home });
  state.sandboxEnv = { HOME: started.home, PATH: `${join(started.home, '.local', 'bin')}:${input.extraEnv.PATH ?? CONTAINER_PATH}` };
  log.line('##[group]Job container');
  for (const note of notes) log.line(note);
  log.line('##[endgroup]');
  return null;
}
