import { readFileSync } from 'node:fs';
import type { StepLimits } from '../sandbox/settings.js';

const MB = 1024 * 1024;

/** A limit of the worker process itself (`/proc/self/limits`, hard value), or null when unreadable or unlimited. */
function ownHardLimit(name: string): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith(name));
    const hard = Number(line?.slice(name.length).trim().split(/\s+/)[1]);
    return Number.isInteger(hard) && hard > 0 ? hard : null;
  } catch {
    return null;
  }
}

/**
 * Podman 4 gives containers RLIMIT_NOFILE 1048576 and RLIMIT_NPROC 4194304 unless told otherwise; where the host's
 * own limits are lower and raising them is not allowed (no CAP_SYS_RESOURCE, as on the test machines) runc refuses to
 * start the container (`error setting rlimit type 7: operation not permitted`). Podman gets the worker's own open
 * files limit and at most 32768 processes per uid (the cgroup's pids limit is the real process limit).
 */
function podmanRlimits(): Array<{ Name: string; Soft: number; Hard: number }> {
  const nofile = Math.min(ownHardLimit('Max open files') ?? 1_048_576, 1_048_576);
  const nproc = Math.min(ownHardLimit('Max processes') ?? 32_768, 32_768);
  return [{ Name: 'nofile', Soft: nofile, Hard: nofile }, { Name: 'nproc', Soft: nproc, Hard: nproc }];
}

function ulimits(limits: StepLimits, kind: 'docker' | 'podman'): Array<{ Name: string; Soft: number; Hard: number }> {
  return [
    { Name: 'core', Soft: 0, Hard: 0 },
    { Name: 'fsize', Soft: limits.fileSizeMb * MB, Hard: limits.fileSizeMb * MB },
    { Name: 'cpu', Soft: limits.cpuSeconds, Hard: limits.cpuSeconds + 5 },
    ...(kind === 'podman' ? podmanRlimits() : []),
  ];
}

/** The resource limits every container of the job gets (docker's cgroup limits, plus the executor's watchdog). */
export function limitOptions(limits: StepLimits, cpus: number, kind: 'docker' | 'podman' = 'docker'): string[] {
  // the watchdog kills at memoryMb of resident memory (the same message as the host sandbox); the cgroup limit
  // above it is the backstop that makes the kernel's OOM killer act if sampling misses a fast allocation
  const hard = limits.memoryMb + 256;
  return [
    `--memory=${hard}m`, `--memory-swap=${hard}m`, `--pids-limit=${limits.maxProcesses + 32}`, `--cpus=${cpus}`,
    ...ulimits(limits, kind).flatMap((u) => ['--ulimit', u.Name === 'core' ? 'core=0' : `${u.Name}=${u.Soft}${u.Soft === u.Hard && u.Name !== 'cpu' ? '' : `:${u.Hard}`}`]),
  ];
}

/** The same limits as {@link limitOptions}, as the Engine API's HostConfig fields. */
export function limitHostConfig(limits: StepLimits, cpus: number, kind: 'docker' | 'podman' = 'docker'): Record<string, unknown> {
  const hard = (limits.memoryMb + 256) * MB;
  return { Memory: hard, MemorySwap: hard, PidsLimit: limits.maxProcesses + 32, NanoCpus: Math.round(cpus * 1e9), Ulimits: ulimits(limits, kind) };
}
