import type { LimitName } from '../sandbox/index.js';
import { LIMIT_REASONS, limitMessage, limitOfFailure } from '../sandbox/index.js';
import { spawnProcess } from '../spawn-process.js';
import { watchStep } from '../job-runner/step-watchdog.js';
import type { StepRuntime } from '../job-runner/step-runtime.js';

export interface JobProcess {
  file: string;
  args: string[];
  /** Working directory as the job sees it. */
  cwd: string;
  env: Record<string, string>;
  onLine: (line: string) => void;
}

export interface JobProcessResult {
  exitCode: number | null;
  cancelled: boolean;
  timedOut: boolean;
  spawnError: string | null;
}

/**
 * Runs one process of an action in the job's environment: today the host path `run:` steps take (the job's
 * launcher: its namespaces, step user and rlimits, watched by the step watchdog). This is the one place to switch
 * when jobs run in containers. A resource limit the process hit is logged and recorded as the job's infra error.
 */
export async function runJobProcess(rt: StepRuntime, proc: JobProcess): Promise<JobProcessResult> {
  const launched = rt.state.launcher.command(proc.file, proc.args, proc.cwd);
  const watch = watchStep(rt.state.launcher);
  const result = await spawnProcess({
    file: launched.file,
    args: launched.args,
    cwd: launched.cwd,
    env: proc.env,
    timeoutMs: rt.timeoutMs,
    signal: rt.signal,
    killGraceMs: rt.input.killGraceMs,
    onLine: proc.onLine,
    onBytes: (bytes) => watch.output(bytes),
    onSpawn: (pid) => {
      rt.state.pids.push(pid);
      rt.input.onProcess?.(pid);
      watch.started(pid);
    },
  });
  const { breach, near } = await watch.finish();
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
