import { randomUUID } from 'node:crypto';
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { LimitName } from '../sandbox/index.js';
import { killJobProcesses, LIMIT_REASONS, limitMessage, limitOfFailure } from '../sandbox/index.js';
import type { SpawnOptions, SpawnResult } from '../spawn-process.js';
import { killGroup, spawnProcess } from '../spawn-process.js';
import { hostView } from './host-view.js';
import { watchStep } from './step-watchdog.js';
import type { StepRuntime, StepExecution } from './step-runtime.js';
import { applyFileCommands, handleOutputLine } from './step-runtime.js';

export interface ShellCommand {
  file: string;
  args: string[];
  /** The template GitHub prints: `/usr/bin/bash -e {0}`. */
  display: string;
  extension: string;
}

/** Finds an executable in PATH. */
export function which(name: string, path: string): string | null {
  if (name.includes('/')) return existsSync(name) ? name : null;
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

/** Shells GitHub's Linux runners have that this executor does not run. */
const UNSUPPORTED_SHELLS: readonly string[] = ['pwsh', 'powershell', 'cmd'];

/** Resolves a `shell:` value like GitHub on Linux; returns an error message for unsupported shells. */
export function resolveShell(shell: string | undefined, scriptPath: string, path: string, find: (name: string, path: string) => string | null = which): ShellCommand | string {
  const build = (name: string, args: string[], extension: string): ShellCommand | string => {
    const file = find(name, path);
    if (file === null) return `${name}: command not found (shell '${shell ?? 'bash'}')`;
    const display = [file, ...args, '{0}'].join(' ');
    return { file, args: [...args, scriptPath], display, extension };
  };
  if (shell === undefined) return find('bash', path) === null && find('sh', path) !== null ? build('sh', ['-e'], '.sh') : build('bash', ['-e'], '.sh');
  if (shell === 'bash') return build('bash', ['--noprofile', '--norc', '-eo', 'pipefail'], '.sh');
  if (shell === 'sh') return build('sh', ['-e'], '.sh');
  if (shell === 'python') return build(find('python', path) === null && find('python3', path) !== null ? 'python3' : 'python', [], '.py');
  if (UNSUPPORTED_SHELLS.includes(shell)) {
    return `shell '${shell}' is not supported by the local executor`;
  }
  const parts = shell.trim().split(/\s+/);
  const [name, ...rest] = parts;
  if (name === undefined || !rest.includes('{0}')) return `invalid shell '${shell}': a custom shell must contain {0}`;
  const file = find(name, path);
  if (file === null) return `${name}: command not found (shell '${shell}')`;
  return { file, args: rest.map((a) => (a === '{0}' ? scriptPath : a)), display: [file, ...rest].join(' '), extension: '' };
}

/** Writes the `##[group]Run ...` header GitHub prints before a script. */
function logHeader(rt: StepRuntime, script: string, shellDisplay: string): void {
  const lines = script.replace(/\n+$/, '').split('\n');
  const log = rt.state.log;
  log.line(`##[group]Run ${(lines.find((l) => l.trim() !== '') ?? '').trim()}`);
  for (const l of lines) log.line(`\u001b[36;1m${l}\u001b[0m`);
  log.line(`shell: ${shellDisplay}`);
  const env = Object.entries(rt.displayEnv);
  if (env.length > 0) {
    log.line('env:');
    for (const [k, v] of env) log.line(`  ${k}: ${v}`);
  }
  log.line('##[endgroup]');
}

export async function runScript(
  rt: StepRuntime,
  script: string,
  shell: string | undefined,
  workingDirectory: string | undefined,
): Promise<StepExecution> {
  const { log } = rt.state;
  const scriptBase = join(rt.state.temp, randomUUID());
  const command = resolveShell(shell, scriptBase, rt.env.PATH ?? '', (name, path) => rt.state.environment.which(name, path));
  if (typeof command === 'string') {
    logHeader(rt, script, shell ?? 'bash');
    log.line(`##[error]${command}`);
    if (shell !== undefined && UNSUPPORTED_SHELLS.includes(shell)) rt.state.infraError ??= { reason: 'unsupported_feature', message: command, stepNumber: rt.number };
    return { outcome: 'failure', timedOut: false };
  }
  const scriptPath = scriptBase + command.extension;
  command.args = command.args.map((a) => (a === scriptBase ? scriptPath : a));
  writeFileSync(scriptPath, script);
  logHeader(rt, script, command.display);
  const cwd = workingDirectory === undefined ? rt.state.workspace : isAbsolute(workingDirectory) ? workingDirectory : resolve(rt.state.workspace, workingDirectory);
  if (!existsSync(hostView(rt.state, cwd))) {
    log.line(
      `##[error]An error occurred trying to start process '${command.file}' with working directory '${cwd}'. No such file or directory`,
    );
    return { outcome: 'failure', timedOut: false };
  }
  const { result, breach, near } = await runStepProcess(rt, { file: command.file, args: command.args, cwd });
  rmSync(scriptPath, { force: true });
  const filesOk = applyFileCommands(rt);
  if (result.spawnError !== null) {
    log.line(`##[error]${result.spawnError}`);
    return { outcome: 'failure', timedOut: false };
  }
  const limit = breach ?? (result.exitCode !== 0 && !result.cancelled && !result.timedOut ? limitOfFailure(result.exitCode, near) : null);
  if (limit !== null) reportLimit(rt, limit);
  if (result.cancelled) {
    log.line('##[error]The operation was canceled.');
    return { outcome: 'cancelled', timedOut: false };
  }
  if (result.timedOut) {
    return { outcome: 'failure', timedOut: true };
  }
  if (result.exitCode !== 0) {
    const message = `Process completed with exit code ${result.exitCode ?? 1}.`;
    log.line(`##[error]${message}`);
    rt.state.annotations.push({ level: 'error', message, stepNumber: rt.number });
    return { outcome: 'failure', timedOut: false };
  }
  return { outcome: filesOk ? 'success' : 'failure', timedOut: false };
}

/**
 * Runs one process as (part of) a step in the job's environment (the host sandbox, or `docker exec` into the job
 * container): the job's launcher, its watchdog over the job's processes and limits, the step's timeout and signal,
 * each output line handled as a workflow command or log line. `env` defaults to the step's environment. The caller
 * reports the exit code; a limit the step hit is reported here only through the returned `breach`/`near`
 * (see runScript for how they become the limit message).
 */
export async function runStepProcess(
  rt: StepRuntime,
  command: { file: string; args: string[]; cwd: string; env?: Record<string, string> },
): Promise<{ result: SpawnResult; breach: LimitName | null; near: Set<LimitName> }> {
  const env = command.env ?? rt.env;
  const launched = rt.state.launcher.command(command.file, command.args, command.cwd, env);
  const watch = watchStep(rt.state.launcher);
  let stepPid = 0;
  const common: Omit<SpawnOptions, 'file' | 'args' | 'cwd' | 'env'> = {
    timeoutMs: rt.timeoutMs,
    signal: rt.signal,
    killGraceMs: rt.input.killGraceMs,
    onLine: (line) => handleOutputLine(rt, line),
    onBytes: (bytes) => watch.output(bytes),
    onSpawn: (pid) => {
      stepPid = pid;
      rt.state.pids.push(pid);
      rt.input.onProcess?.(pid);
      watch.started(pid);
    },
  };
  // a job container's step runner starts the process itself; otherwise spawn the launcher's command line
  const result = await (rt.state.launcher.spawn?.({ file: command.file, args: command.args, cwd: command.cwd, env, ...common })
    ?? spawnProcess({ file: launched.file, args: launched.args, cwd: launched.cwd, env: launched.env ?? env, ...common }));
  // a runtime CLI killed on timeout or cancel leaves its process running in the container: end the job's processes
  if ((result.timedOut || result.cancelled) && rt.state.environment.kind === 'container') await killJobProcesses(rt.state.launcher.membership(stepPid));
  const { breach, near } = await watch.finish();
  return { result, breach, near };
}

/** Runs a step process and reports what a `run:` script's end reports: limits, cancel, timeout, exit code. */
export async function runStepCommand(rt: StepRuntime, command: { file: string; args: string[]; cwd: string; env?: Record<string, string> }): Promise<StepExecution & { exitCode: number | null }> {
  const { result, breach, near } = await runStepProcess(rt, command);
  const { log } = rt.state;
  if (result.spawnError !== null) {
    log.line(`##[error]${result.spawnError}`);
    return { outcome: 'failure', timedOut: false, exitCode: null };
  }
  const limit = breach ?? (result.exitCode !== 0 && !result.cancelled && !result.timedOut ? limitOfFailure(result.exitCode, near) : null);
  if (limit !== null) reportLimit(rt, limit);
  if (result.cancelled) {
    log.line('##[error]The operation was canceled.');
    return { outcome: 'cancelled', timedOut: false, exitCode: result.exitCode };
  }
  if (result.timedOut) return { outcome: 'failure', timedOut: true, exitCode: result.exitCode };
  if (result.exitCode !== 0) {
    const message = `Process completed with exit code ${result.exitCode ?? 1}.`;
    log.line(`##[error]${message}`);
    rt.state.annotations.push({ level: 'error', message, stepNumber: rt.number });
    return { outcome: 'failure', timedOut: false, exitCode: result.exitCode };
  }
  return { outcome: 'success', timedOut: false, exitCode: 0 };
}

/** Logs (past the log cap too) and records a resource limit the step hit: the job's failure is the platform's. */
function reportLimit(rt: StepRuntime, limit: LimitName): void {
  const message = limitMessage(limit, rt.state.launcher.limits);
  rt.state.log.forceLine(`##[error]${message}`);
  rt.state.annotations.push({ level: 'error', message, stepNumber: rt.number });
  rt.state.infraError ??= { reason: LIMIT_REASONS[limit], message, stepNumber: rt.number };
}

/** Kills every process group the job started (GitHub's "Cleaning up orphan processes"). */
export function killOrphans(pids: number[]): void {
  for (const pid of pids) killGroup(pid, 'SIGKILL');
}
