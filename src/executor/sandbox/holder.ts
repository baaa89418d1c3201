import { spawn } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { SYSTEM_PATH, firstLine } from './host-commands.js';
import type { SandboxFlavor, SandboxTools } from './probe.js';

/** The process that owns a job's namespaces: `unshare`, whose child (PID 1 inside) ran the mount setup. */
export interface Holder {
  /** Host pid of `unshare` (in the new mount/ipc/uts/net namespaces; its children are in the new pid namespace). */
  pid: number;
  /** `pid:[inode]` of the job's pid namespace: every process of the job has it. */
  pidNamespace: string;
  /** nsenter options that put a command into the job's namespaces. */
  enterOptions: string[];
  alive(): boolean;
  /** Ends the namespace: closes the init's stdin (it exits; the kernel kills all that is left), SIGKILL if it lingers. */
  stop(): Promise<void>;
}

export interface HolderOptions {
  tools: SandboxTools;
  flavor: SandboxFlavor;
  /** A network namespace of its own (only loopback). */
  isolateNetwork: boolean;
  script: string;
  timeoutMs?: number;
}

/** Starts a job's namespaces and waits until its setup script printed `ready` (rejects with the script's error). */
export function startHolder(options: HolderOptions): Promise<Holder> {
  const args = [
    ...(options.flavor === 'userns' ? ['--user', '--map-root-user'] : []),
    '--mount', '--pid', '--fork', '--mount-proc', '--ipc', '--uts', ...(options.isolateNetwork ? ['--net'] : []),
    '--propagation', 'private', '--kill-child', '--', options.tools.bash, '--noprofile', '--norc', '-c', options.script,
  ];
  const child = spawn(options.tools.unshare, args, { env: { PATH: SYSTEM_PATH, LANG: 'C' }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => child.once('exit', () => {
    exited = true;
    resolve();
  }));
  return new Promise<Holder>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let ready = false;
    const fail = (reason: string): void => {
      clearTimeout(timer);
      if (!exited) child.kill('SIGKILL');
      reject(new Error(reason));
    };
    const timer = setTimeout(() => fail(`the sandbox setup did not finish within ${(options.timeoutMs ?? 20_000) / 1000} s`), options.timeoutMs ?? 20_000);
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString('utf8');
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (ready) return;
      stdout += chunk.toString('utf8');
      if (!stdout.includes('ready\n')) return;
      ready = true;
      clearTimeout(timer);
      const pid = child.pid ?? 0;
      let pidNamespace: string;
      try {
        pidNamespace = readlinkSync(`/proc/${pid}/ns/pid_for_children`);
      } catch (error) {
        fail(`the sandbox's pid namespace is not readable: ${(error as Error).message}`);
        return;
      }
      const files: Record<string, string> = { mount: 'mnt', pid: 'pid_for_children' };
      const ns = (name: string): string => `--${name}=/proc/${pid}/ns/${files[name] ?? name}`;
      const enterOptions = [
        ...(options.flavor === 'userns' ? ['--preserve-credentials', ns('user')] : []),
        ns('mount'), ns('pid'), ns('ipc'), ns('uts'), ...(options.isolateNetwork ? [ns('net')] : []),
      ];
      resolve({
        pid,
        pidNamespace,
        enterOptions,
        alive: () => !exited,
        stop: async () => {
          if (exited) return;
          child.stdin.end();
          const lingering = setTimeout(() => child.kill('SIGKILL'), 2000);
          await exitedPromise;
          clearTimeout(lingering);
        },
      });
    });
    child.on('error', (error) => fail(`the sandbox could not start: ${error.message}`));
    child.on('exit', (code, signal) => {
      if (!ready) fail(`the sandbox setup failed (${signal ?? `exit code ${code}`}): ${firstLine(stderr) || 'no error output'}`);
    });
    child.stdin.on('error', () => undefined);
  });
}
