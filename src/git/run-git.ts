import { spawn } from 'node:child_process';
import { AppError, type ErrorKind } from '../errors.js';

/** PATH given to git: a fixed system path, never inherited from the service's environment. */
const SAFE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Configuration passed with `-c` to every git invocation: no hooks, no auto gc, no signing, no prompts. */
const BASE_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null',
  'gc.auto=0',
  'maintenance.auto=false',
  'commit.gpgSign=false',
  'credential.interactive=false',
  'advice.detachedHead=false',
  'fetch.writeCommitGraph=false',
];

/** Default time limit for one git process. */
export const DEFAULT_GIT_TIMEOUT_MS = 120_000;

/** Options for one git invocation. */
export interface RunGitOptions {
  /** Repository (GIT_DIR) to run against; omitted for commands such as `clone` or `ls-remote`. */
  gitDir?: string;
  /** Working directory of the process (defaults to gitDir, else `/`). */
  cwd?: string;
  /** Extra environment variables (e.g. GIT_INDEX_FILE, author identity). */
  env?: Readonly<Record<string, string>>;
  /** Bytes written to stdin. */
  input?: string | Buffer;
  /** Kill the process (group) after this many milliseconds; raises a transient `git_timeout`. */
  timeoutMs?: number;
  /** Kind of the AppError thrown on a non-zero exit (default `permanent`). */
  failureKind?: ErrorKind;
  /** Error code thrown on a non-zero exit (default `git_failed`). */
  failureCode?: string;
  /** Return non-zero exits instead of throwing. */
  allowFailure?: boolean;
  /** git executable (default `git`); benchmarks pass a wrapper that measures memory. */
  gitBinary?: string;
}

/** Outcome of a git process. */
export interface GitResult {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
}

/** Environment for git: a clean subset, no global/system config, no terminal prompts, C locale. */
export function gitEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    PATH: SAFE_PATH,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    GIT_SSH_COMMAND: 'ssh -o BatchMode=yes',
    ...extra,
  };
}

/**
 * Runs git with `args`, the base `-c` configuration and a clean environment.
 * Throws an AppError (kind from `failureKind`) on a non-zero exit unless `allowFailure`,
 * a transient `git_timeout` on timeout and a permanent `git_unavailable` when git cannot start.
 */
export function runGit(args: readonly string[], options: RunGitOptions = {}): Promise<GitResult> {
  const configArgs = BASE_CONFIG.flatMap((entry) => ['-c', entry]);
  const fullArgs = [...configArgs, ...args];
  const env = gitEnv({ ...(options.gitDir === undefined ? {} : { GIT_DIR: options.gitDir }), ...options.env });
  const timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn(options.gitBinary ?? 'git', fullArgs, {
      cwd: options.cwd ?? options.gitDir ?? '/',
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new AppError('permanent', 'git could not be started', { code: 'git_unavailable', cause: error }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const result: GitResult = {
        exitCode: code ?? -1,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).toString('utf8'),
      };
      if (timedOut) {
        reject(new AppError('transient', 'git timed out', {
          code: 'git_timeout',
          details: { command: subcommand(args), timeoutMs },
        }));
        return;
      }
      if (result.exitCode !== 0 && options.allowFailure !== true) {
        reject(gitFailure(args, result, options));
        return;
      }
      resolve(result);
    });
    child.stdin.end(options.input);
  });
}

function gitFailure(args: readonly string[], result: GitResult, options: RunGitOptions): AppError {
  const command = subcommand(args);
  return new AppError(options.failureKind ?? 'permanent', `git ${command} failed`, {
    code: options.failureCode ?? 'git_failed',
    details: { command, exitCode: result.exitCode, stderr: result.stderr.slice(-4000) },
  });
}

/** The git subcommand in `args`, skipping `-c key=value` pairs (never the values: they may hold secrets). */
function subcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '-c') i += 1;
    else if (!(args[i] ?? '').startsWith('-')) return args[i] ?? '';
  }
  return '';
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Trimmed stdout as text. */
export const text = (result: GitResult): string => result.stdout.toString('utf8').trim();
