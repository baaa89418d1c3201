import type { LimitName } from '../sandbox/index.js';
import { LIMIT_REASONS, limitMessage, limitOfFailure } from '../sandbox/index.js';
import type { SpawnResult } from '../spawn-process.js';
import { runStepProcess } from '../job-runner/run-script.js';
import type { StepRuntime } from '../job-runner/step-runtime.js';

export interface JobProcess {
  file: string;
  args: string[];
  /** Working directory as the job sees it. */
  cwd: string;
  env: Record<string, string>;
}

/**
 * Runs one process of an action where the job's steps run (the host step sandbox or the job container, through the
 * job's launcher and watchdog; output lines are workflow commands or log lines). A resource limit the process hit
 * is logged and recorded as the job's infra error; the caller words the rest of the outcome.
 */
export async function runJobProcess(rt: StepRuntime, proc: JobProcess): Promise<SpawnResult> {
  const { result, breach, near } = await runStepProcess(rt, proc);
  const limit = breach ?? (result.exitCode !== 0 && !result.cancelled && !result.timedOut ? limitOfFailure(result.exitCode, near) : null);
  if (limit !== null) reportLimit(rt, limit);
  return result;
}

function reportLimit(rt: StepRuntime, limit: LimitName): void {
  const message = limitMessage(limit, rt.state.launcher.limits);
  rt.state.log.forceLine(`##[error]${message}`);
  rt.state.annotations.push({ level: 'error', message, stepNumber: rt.number });
  rt.state.infraError ??= { reason: LIMIT_REASONS[limit], message, stepNumber: rt.number };
}
