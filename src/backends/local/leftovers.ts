import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What a local run leaves on this host when its worker dies: step processes (outside a sandbox a step's process
 * group outlives the worker; inside one, the job's pid namespace ends with its holder) and the run's work folders.
 * Every step's process group is recorded as it starts, in `<run dir>/processes-<attempt>` (`<pgid> <start time>`
 * lines, the start time in clock ticks since boot, so a recycled pid is never mistaken for the step).
 */

const processesFile = (runDir: string, attempt: number): string => join(runDir, `processes-${attempt}`);

/** Field 22 of /proc/<pid>/stat (start time) and field 5 (process group); null when the process is gone. */
function stat(pid: number): { start: number; pgrp: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { start: Number(fields[19] ?? 0), pgrp: Number(fields[2] ?? 0) };
  } catch {
    return null;
  }
}

/** Records a step's process group (called as the step starts; synchronous and tiny). */
export function recordProcess(runDir: string, attempt: number, pgid: number): void {
  const start = stat(pgid)?.start ?? 0;
  try {
    appendFileSync(processesFile(runDir, attempt), `${pgid} ${start}\n`);
  } catch {
    // the run folder is gone: nothing to record it for
  }
}

/** The recorded groups of every attempt up to `attempt`. */
async function recorded(runDir: string, attempt: number): Promise<{ pgid: number; start: number }[]> {
  let names: string[];
  try {
    names = await readdir(runDir);
  } catch {
    return [];
  }
  const out: { pgid: number; start: number }[] = [];
  for (const name of names) {
    const match = /^processes-(\d+)$/.exec(name);
    if (match === null || Number(match[1]) > attempt) continue;
    const text = await readFile(join(runDir, name), 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      const [pgid, start] = line.split(' ').map(Number);
      if (pgid !== undefined && pgid > 1 && Number.isInteger(pgid)) out.push({ pgid, start: start ?? 0 });
    }
  }
  return out;
}

/** Live processes that belong to one of the groups and started no earlier than it (not a recycled pid). */
function members(groups: { pgid: number; start: number }[]): number[] {
  const byGroup = new Map(groups.map((group) => [group.pgid, group.start]));
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    const info = stat(pid);
    if (info === null) continue;
    const start = byGroup.get(info.pgrp);
    if (start !== undefined && info.start >= start) pids.push(pid);
  }
  return pids;
}

/** SIGKILLs what is left of the recorded step processes of attempts up to `attempt`; returns how many were killed. */
export async function killLeftovers(runDir: string, attempt: number): Promise<number> {
  const groups = await recorded(runDir, attempt);
  if (groups.length === 0) return 0;
  const killed = new Set<number>();
  // A few passes: a process may fork while its group is being killed.
  for (let pass = 0; pass < 10; pass += 1) {
    const left = members(groups);
    if (left.length === 0) break;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      } catch {
        // gone meanwhile
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20 + pass * 10));
  }
  return killed.size;
}

/** Removes the executor's work folders (`<workRoot>/run-<run id>-<attempt>-*`) of attempts up to `attempt`. */
export async function removeWorkFolders(workRoot: string, runId: string, attempt: number): Promise<number> {
  let names: string[];
  try {
    names = await readdir(workRoot);
  } catch {
    return 0;
  }
  const prefix = `run-${runId}-`;
  const dead = names.filter((name) => {
    if (!name.startsWith(prefix)) return false;
    const runAttempt = Number(name.slice(prefix.length).split('-')[0]);
    return Number.isInteger(runAttempt) && runAttempt <= attempt;
  });
  await Promise.all(dead.map((name) => rm(join(workRoot, name), { recursive: true, force: true })));
  return dead.length;
}
