import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** One process as /proc/<pid>/stat shows it. */
export interface ProcessSample {
  pid: number;
  ppid: number;
  pgrp: number;
  state: string;
  threads: number;
  cpuSeconds: number;
  /** Private writable memory (VmData: what RLIMIT_DATA counts). */
  dataBytes: number;
  rssBytes: number;
}

/** Which processes belong to a job: those in its pid namespace, or (without a sandbox) those in a process group. */
export type Membership = { pidNamespace: string; exclude: number } | { pgrp: number };

const TICKS = 100;
const PAGE = 4096;

function sample(pid: number): ProcessSample | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const n = (i: number): number => Number(f[i] ?? 0);
  let dataPages = 0;
  try {
    dataPages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[5] ?? 0);
  } catch {
    // exited between the two reads
  }
  return {
    pid, state: f[0] ?? '?', ppid: n(1), pgrp: n(2), cpuSeconds: (n(11) + n(12)) / TICKS, threads: n(17), dataBytes: dataPages * PAGE, rssBytes: n(21) * PAGE,
  };
}

/** The job's live processes (zombies excluded). */
export function listJobProcesses(membership: Membership): ProcessSample[] {
  const out: ProcessSample[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    if ('pidNamespace' in membership) {
      if (pid === membership.exclude) continue;
      try {
        if (readlinkSync(`/proc/${pid}/ns/pid`) !== membership.pidNamespace) continue;
      } catch {
        continue;
      }
    }
    const s = sample(pid);
    if (s === null || s.state === 'Z' || s.state === 'X') continue;
    if ('pgrp' in membership && s.pgrp !== membership.pgrp) continue;
    if ('pidNamespace' in membership && s.ppid === membership.exclude) {
      // PID 1 of the namespace (the holder's child): not a step process
      continue;
    }
    out.push(s);
  }
  return out;
}

export interface JobUsage {
  tasks: number;
  rssBytes: number;
  maxDataBytes: number;
  maxCpuSeconds: number;
}

export function usageOf(processes: ProcessSample[]): JobUsage {
  let tasks = 0;
  let rssBytes = 0;
  let maxDataBytes = 0;
  let maxCpuSeconds = 0;
  for (const p of processes) {
    tasks += Math.max(1, p.threads);
    rssBytes += p.rssBytes;
    maxDataBytes = Math.max(maxDataBytes, p.dataBytes);
    maxCpuSeconds = Math.max(maxCpuSeconds, p.cpuSeconds);
  }
  return { tasks, rssBytes, maxDataBytes, maxCpuSeconds };
}

/** Sends a signal to each listed process, ignoring those already gone. */
export function signalAll(processes: ProcessSample[], signal: NodeJS.Signals): void {
  for (const p of processes) {
    try {
      process.kill(p.pid, signal);
    } catch {
      // gone
    }
  }
}

/** SIGKILLs the job's processes until none is left (a few passes: processes forking while they are killed). */
export async function killJobProcesses(membership: Membership): Promise<void> {
  for (let pass = 0; pass < 20; pass += 1) {
    const left = listJobProcesses(membership);
    if (left.length === 0) return;
    signalAll(left, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 10 + pass * 5));
  }
}

/**
 * Stops (SIGSTOP) the job's processes so none can act while the executor itself works in the job's directory,
 * re-scanning until every one is stopped. Returns false when they kept forking (the caller then kills them).
 */
export async function pauseJobProcesses(membership: Membership): Promise<boolean> {
  for (let pass = 0; pass < 20; pass += 1) {
    const running = listJobProcesses(membership).filter((p) => p.state !== 'T' && p.state !== 't');
    if (running.length === 0) return true;
    signalAll(running, 'SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 2 + pass));
  }
  return false;
}

export function resumeJobProcesses(membership: Membership): void {
  signalAll(listJobProcesses(membership), 'SIGCONT');
}
