import type { StepLimits } from '../sandbox/settings.js';

const MB = 1024 * 1024;

/** The resource limits every container of the job gets (docker's cgroup limits, plus the executor's watchdog). */
export function limitOptions(limits: StepLimits, cpus: number): string[] {
  // the watchdog kills at memoryMb of resident memory (the same message as the host sandbox); the cgroup limit
  // above it is the backstop that makes the kernel's OOM killer act if sampling misses a fast allocation
  const hard = limits.memoryMb + 256;
  return [
    `--memory=${hard}m`, `--memory-swap=${hard}m`, `--pids-limit=${limits.maxProcesses + 32}`, `--cpus=${cpus}`,
    '--ulimit', 'core=0', '--ulimit', `fsize=${limits.fileSizeMb * MB}`, '--ulimit', `cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 5}`,
  ];
}
