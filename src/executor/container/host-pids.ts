import { readFileSync } from 'node:fs';

/** Host pids of a process's children (those its main thread started: /proc/<pid>/task/<pid>/children). */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter((p) => p !== '').map(Number);
  } catch {
    return [];
  }
}

/** A host process's pid inside its innermost pid namespace (the last NSpid field), or null when it is gone. */
export function namespacePid(hostPid: number): number | null {
  try {
    const line = readFileSync(`/proc/${hostPid}/status`, 'utf8').split('\n').find((l) => l.startsWith('NSpid:'));
    const last = line?.trim().split(/\s+/).pop();
    return last === undefined ? null : Number(last);
  } catch {
    return null;
  }
}

/** The host pid of the child of `parent` whose pid in the container is `containerPid`. */
export function hostPidOfChild(parent: number, containerPid: number): number | null {
  return childrenOf(parent).find((child) => namespacePid(child) === containerPid) ?? null;
}

/** A process's command name (`/proc/<pid>/comm`), or null when it is gone. */
export function commandOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}
