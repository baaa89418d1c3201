import type { JobUsage } from './job-processes.js';
import type { StepLimits } from './settings.js';

export type LimitName = 'memory' | 'processes' | 'cpu' | 'file_size' | 'output';

/** The reason code a limit breach is reported with (JobResult.infraError.reason). */
export const LIMIT_REASONS: Record<LimitName, string> = {
  memory: 'out_of_memory',
  processes: 'process_limit',
  cpu: 'cpu_time_limit',
  file_size: 'file_size_limit',
  output: 'output_limit',
};

const MB = 1024 * 1024;

/** prlimit options for every step process (RLIMIT_NPROC gets `nprocSlack` more: the uid's other processes count too). */
export function prlimitOptions(limits: StepLimits, nprocSlack: number): string[] {
  return [
    `--data=${limits.memoryMb * 2 * MB}`,
    `--nproc=${limits.maxProcesses + nprocSlack}`,
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 5}`,
    `--fsize=${limits.fileSizeMb * MB}`,
    '--core=0',
  ];
}

/** A breach the watchdog acts on at once (the step is killed). */
export function breachOf(usage: JobUsage, limits: StepLimits, processSlack: number): LimitName | null {
  if (usage.tasks >= Math.max(1, limits.maxProcesses - processSlack)) return 'processes';
  if (usage.rssBytes >= limits.memoryMb * MB) return 'memory';
  return null;
}

/** Limits a process came close to (sampled while the step ran): evidence when the step then fails. */
export function nearLimits(usage: JobUsage, limits: StepLimits): LimitName[] {
  const near: LimitName[] = [];
  if (usage.maxDataBytes >= limits.memoryMb * 2 * MB * 0.9) near.push('memory');
  if (usage.maxCpuSeconds >= limits.cpuSeconds * 0.9) near.push('cpu');
  return near;
}

/**
 * The limit a failed step most likely hit: one the watchdog saw it approach, or the signal the kernel sends for a
 * limit (SIGXCPU = exit 152, SIGXFSZ = exit 153).
 */
export function limitOfFailure(exitCode: number | null, near: Set<LimitName>): LimitName | null {
  if (exitCode === 152 || (near.has('cpu') && exitCode === 137)) return 'cpu';
  if (exitCode === 153) return 'file_size';
  if (near.has('memory') && exitCode !== 0) return 'memory';
  return null;
}

/** The `##[error]` text for a limit, naming the setting (the outcome classifier keys on these words). */
export function limitMessage(limit: LimitName, limits: StepLimits): string {
  if (limit === 'memory') return `The step exceeded the memory limit (EXECUTOR_STEP_MEMORY_MB=${limits.memoryMb}): out of memory, the step's processes were killed.`;
  if (limit === 'processes') return `The step exceeded the process limit (EXECUTOR_STEP_MAX_PROCESSES=${limits.maxProcesses}): fork failed (Resource temporarily unavailable), the step's processes were killed.`;
  if (limit === 'cpu') return `The step exceeded the CPU time limit (EXECUTOR_STEP_CPU_SECONDS=${limits.cpuSeconds}): Killed.`;
  if (limit === 'file_size') return `The step exceeded the file size limit (EXECUTOR_STEP_FILE_SIZE_MB=${limits.fileSizeMb}): File too large.`;
  return `The step exceeded the output limit (EXECUTOR_STEP_MAX_OUTPUT_BYTES=${limits.maxOutputBytes}): the step's processes were killed.`;
}
