import { dirname, join } from 'node:path';
import { runBuiltinAction } from '../builtin-actions/index.js';
import { startJobSandbox } from '../sandbox/index.js';
import type { JobInput, JobState } from './job-state.js';
import type { StepExecution, StepRuntime } from './step-runtime.js';

/**
 * The "Step sandbox" part of "Set up job": starts the job's namespaces (when the run has them) and logs what steps
 * can and cannot do. Returns the setup error that fails the job (sandbox required but unavailable, or broken).
 */
export async function setUpSandbox(input: JobInput, state: JobState, workspace: string): Promise<string | null> {
  const plan = input.sandbox;
  const { log } = state;
  const fail = (reason: string, message: string): string => {
    state.infraError ??= { reason, message, stepNumber: 1 };
    return message;
  };
  if (plan.unavailable !== null) return fail('sandbox_unavailable', plan.unavailable);
  const notes = [...plan.notes];
  if (plan.namespaces !== null) {
    try {
      const started = await startJobSandbox(
        plan,
        { jobDir: input.jobDir, workspace, temp: state.temp, privateDir: join(dirname(input.jobDir), `${input.jobId}.sandbox`) },
        input.sandboxPaths,
      );
      state.sandbox = started.sandbox;
      state.launcher = started.sandbox;
      const basePath = input.extraEnv.PATH ?? input.baseEnv.PATH ?? '';
      state.sandboxEnv = { HOME: started.sandbox.home, PATH: `${join(started.sandbox.home, '.local', 'bin')}:${basePath}` };
      notes.push(...started.notes);
    } catch (error) {
      input.logger.warn({ err: error, jobId: input.jobId }, 'executor step sandbox could not start');
      return fail('sandbox_failed', `The step sandbox could not be set up: ${(error as Error).message}`);
    }
  }
  log.line('##[group]Step sandbox');
  for (const note of notes) log.line(note);
  log.line('##[endgroup]');
  return null;
}

/**
 * Runs a built-in action (the executor itself, outside the sandbox, writing into the job directory) with the
 * job's processes stopped, then gives what it wrote to the step user.
 */
export async function runBuiltinInSandbox(rt: StepRuntime, uses: string, inputs: Record<string, string>): Promise<StepExecution> {
  const sandbox = rt.state.sandbox;
  if (sandbox === null) return runBuiltinAction(rt, uses, inputs);
  await sandbox.pause();
  try {
    return await runBuiltinAction(rt, uses, inputs);
  } finally {
    await sandbox.handOver();
    sandbox.resume();
  }
}
