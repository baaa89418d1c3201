import { randomInt } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runCommand, systemTool } from './host-commands.js';
import { startHolder, type Holder } from './holder.js';
import type { Membership } from './job-processes.js';
import { killJobProcesses, pauseJobProcesses, resumeJobProcesses } from './job-processes.js';
import { planMounts, setupScript } from './mount-plan.js';
import type { SandboxRunPlan } from './run-plan.js';
import type { StepLimits } from './settings.js';
import { prlimitOptions } from './step-limits.js';
import type { SpawnOptions, SpawnResult } from '../spawn-process.js';

/** How a job's step commands are started and watched, with or without namespaces. */
export interface StepLauncher {
  limits: StepLimits;
  /**
   * The process to spawn for a step command run in `cwd` (namespaces, credentials and rlimits around it). With
   * `env` (the step's environment) a launcher may return the environment to spawn with instead (a container
   * runtime's CLI forwards the step's variables by name).
   */
  command(file: string, args: string[], cwd: string, env?: Record<string, string>): { file: string; args: string[]; cwd: string; env?: Record<string, string> };
  /**
   * Runs a step command itself (the command and the step's environment, untransformed) instead of spawning
   * `command()`: a job container's step runner. Undefined (or no method): spawn `command()`.
   */
  spawn?(options: SpawnOptions): Promise<SpawnResult> | undefined;
  /** The processes the watchdog counts for a step whose spawned process is `stepPid`. */
  membership(stepPid: number): Membership;
  /** The watchdog calls a process breach this many tasks before the limit (other processes of the uid count too). */
  processSlack: number;
}

/** A job's namespaces, its step user and the ownership of its directory. */
export interface JobSandbox extends StepLauncher {
  /** The step user's uid/gid when the worker is root; null in a user namespace (steps keep the worker uid). */
  owner: { uid: number; gid: number } | null;
  /** HOME of the steps, inside the job directory. */
  home: string;
  alive(): boolean;
  /** Stops every process of the job while the executor itself writes into the job directory. */
  pause(): Promise<void>;
  resume(): void;
  /** Gives what the executor wrote into the job directory to the step user (workspace, home, tmp, RUNNER_TEMP files). */
  handOver(): Promise<void>;
  /** Gives one file the executor created (a GITHUB_ENV file, …) to the step user. */
  ownFile(path: string): void;
  /** Kills every process of the job and removes its namespaces. */
  stop(): Promise<void>;
}

export interface JobDirs {
  jobDir: string;
  workspace: string;
  temp: string;
  /** Host-only directory for the sandbox's own files (generated /etc/passwd): never visible to steps. */
  privateDir: string;
}

/** Directories of RUNNER_TEMP the executor owns: steps may read them, not replace them. */
export const PROTECTED_TEMP_ENTRIES = ['_runner_file_commands', '_github_workflow', '_tool'];

const activeUids = new Set<number>();

function pickUid(range: { first: number; last: number }): number {
  const size = range.last - range.first + 1;
  for (let attempt = 0; attempt < 64; attempt += 1) {
    const uid = range.first + (size > 1 ? randomInt(0, size) : 0);
    if (!activeUids.has(uid)) return uid;
  }
  return range.first + randomInt(0, size);
}

/** Steps without namespaces: only the rlimits (when prlimit exists) and the watchdog over their process group. */
export function hostLauncher(plan: SandboxRunPlan): StepLauncher {
  const limits = plan.settings.limits;
  return {
    limits,
    processSlack: 16,
    command: (file, args, cwd) =>
      plan.prlimit === null ? { file, args, cwd } : { file: plan.prlimit, args: [...prlimitOptions(limits, 256), '--', file, ...args], cwd },
    membership: (stepPid) => ({ pgrp: stepPid }),
  };
}

/** Whether a user with no relation to the owner may read a file, or list and enter a directory. */
function othersMayRead(path: string): boolean {
  const stat = statSync(path);
  const needed = stat.isDirectory() ? 0o005 : 0o004;
  return (stat.mode & needed) === needed;
}

function writeEtc(dir: string, uid: number, gid: number, home: string): { passwd: string; group: string } {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const read = (path: string): string => {
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    return text === '' || text.endsWith('\n') ? text : `${text}\n`;
  };
  const passwd = join(dir, 'passwd');
  const group = join(dir, 'group');
  writeFileSync(passwd, `${read('/etc/passwd')}runner:x:${uid}:${gid}:runner:${home}:/bin/bash\n`, { mode: 0o644 });
  writeFileSync(group, `${read('/etc/group')}runner:x:${gid}:\n`, { mode: 0o644 });
  return { passwd, group };
}

/**
 * Creates a job's namespaces (see mount-plan.ts for what is hidden) and lays out its directory for the step user:
 * the job directory and RUNNER_TEMP are root-owned and sticky (steps create files there but cannot replace the
 * executor's), the workspace, HOME and /tmp belong to the step user.
 */
export async function startJobSandbox(
  plan: SandboxRunPlan,
  dirs: JobDirs,
  paths: { hide: string[]; readOnly: string[]; gitSafeDirectories?: string[] },
): Promise<{ sandbox: JobSandbox; notes: string[] }> {
  const ns = plan.namespaces;
  if (ns === null) throw new Error('startJobSandbox needs namespaces');
  const limits = plan.settings.limits;
  const home = join(dirs.jobDir, 'home');
  const tmp = join(dirs.jobDir, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  let owner: JobSandbox['owner'] = null;
  let etc: { passwd: string; group: string } | null = null;
  if (ns.flavor === 'root') {
    const uid = pickUid(plan.settings.runAsUid);
    owner = { uid, gid: plan.settings.runAsGid ?? uid };
    activeUids.add(uid);
    chmodSync(dirs.jobDir, 0o1777);
    chmodSync(dirs.temp, 0o1777);
    // git refuses repositories another user owns: the read-only source (`origin`) is the executor's
    const safe = (paths.gitSafeDirectories ?? []).map((dir) => `\tdirectory = ${dir}\n`).join('');
    if (safe !== '') writeFileSync(join(home, '.gitconfig'), `[safe]\n${safe}`, { mode: 0o644 });
    for (const dir of [dirs.workspace, home, tmp, ...(safe === '' ? [] : [join(home, '.gitconfig')])]) chownSync(dir, owner.uid, owner.gid);
    chmodSync(tmp, 0o1777);
    etc = writeEtc(dirs.privateDir, owner.uid, owner.gid, home);
  }
  const release = (): void => {
    if (owner !== null) activeUids.delete(owner.uid);
  };
  const hide = ['/root', '/home', '/run', homedir(), ...paths.hide];
  const { plan: mounts, dropped } = planMounts({
    jobDir: dirs.jobDir, tmpDir: tmp, hide, readOnly: paths.readOnly, etc, loopbackWith: ns.network === 'none' ? ns.tools.ip : null,
  });
  let holder: Holder;
  try {
    holder = await startHolder({ tools: ns.tools, flavor: ns.flavor, isolateNetwork: ns.network === 'none', script: setupScript(mounts) });
  } catch (error) {
    release();
    throw error;
  }
  const membership: Membership = { pidNamespace: holder.pidNamespace, exclude: holder.pid };
  const nsenter = ns.tools.nsenter;
  const setpriv = ns.tools.setpriv;
  const credentials =
    owner === null
      ? ['--no-new-privs', '--inh-caps=-all', '--bounding-set=-all']
      : [`--reuid=${owner.uid}`, `--regid=${owner.gid}`, '--clear-groups', '--no-new-privs', '--inh-caps=-all', '--bounding-set=-all'];
  const rlimits = plan.prlimit === null ? [] : [plan.prlimit, ...prlimitOptions(limits, owner === null ? 256 : 0), '--'];
  const find = systemTool('find');
  const envTool = systemTool('env') ?? '/usr/bin/env';
  const sandbox: JobSandbox = {
    limits,
    owner,
    home,
    processSlack: owner === null ? 16 : 2,
    command: (file, args, cwd) => ({
      file: nsenter,
      // nsenter's --wd opens the directory before it enters the mount namespace (unreachable inside): `env -C` after
      args: [...holder.enterOptions, '--', ...rlimits, setpriv, ...credentials, '--', envTool, `--chdir=${cwd}`, '--', file, ...args],
      cwd: dirs.jobDir,
    }),
    membership: () => membership,
    alive: () => holder.alive(),
    pause: async () => {
      if (!(await pauseJobProcesses(membership))) await killJobProcesses(membership);
    },
    resume: () => resumeJobProcesses(membership),
    handOver: async () => {
      if (owner === null || find === null) return;
      const chown = ['(', '-type', 'd', '-o', '-type', 'l', '-o', '-links', '1', ')', '-uid', '0', '-exec', 'chown', '-h', `${owner.uid}:${owner.gid}`, '{}', '+'];
      // one find for the three trees (each start point walked on its own, as three runs would)
      await runCommand(find, [dirs.workspace, home, tmp, '-xdev', ...chown], 300_000);
      const prune = PROTECTED_TEMP_ENTRIES.flatMap((name, i) => [...(i === 0 ? [] : ['-o']), '-path', join(dirs.temp, name)]);
      await runCommand(find, [dirs.temp, '-xdev', '-mindepth', '1', '(', ...prune, ')', '-prune', '-o', ...chown], 300_000);
    },
    ownFile: (path) => {
      if (owner !== null) chownSync(path, owner.uid, owner.gid);
    },
    stop: async () => {
      await holder.stop();
      release();
    },
  };
  const notes = dropped.length === 0 ? [] : [`Not hidden from steps (a system directory or the job's own): ${dropped.join(', ')}`];
  const unreadable = owner === null ? [] : mounts.readOnly.map((bind) => bind.source).filter((path) => !othersMayRead(path));
  if (unreadable.length > 0) notes.push(`Not readable by the step user (no read permission for others): ${unreadable.join(', ')}`);
  return { sandbox, notes };
}
