import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemTool } from '../sandbox/host-commands.js';
import type { RuntimeChoice } from './settings.js';

/** A container runtime whose daemon answered: `bin` is its CLI (docker, or podman's docker-compatible CLI). */
export interface ContainerRuntime {
  kind: 'docker' | 'podman';
  bin: string;
  version: string;
  /** How its CLI and API client find the daemon (ContainerSettings.daemonEnv). */
  daemonEnv: Record<string, string>;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the runtime's CLI without a shell; never throws (a failure is a non-zero code with stderr). The CLI gets only
 * PATH and the runtime's own variables: the worker's environment (DATABASE_URL, keys) never reaches a container.
 */
export function cli(runtime: Pick<ContainerRuntime, 'bin' | 'daemonEnv'>, args: string[], options: { timeoutMs?: number; input?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      runtime.bin,
      args,
      { env: cliEnv(runtime), timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout: String(stdout), stderr: error !== null && String(stderr) === '' ? error.message : String(stderr) });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

let emptyConfig: string | null = null;

/**
 * A client configuration directory without credentials (`config.json` is `{}`), made once per process: docker reads
 * no credentials from it, and podman, which fails when DOCKER_CONFIG names a directory without config.json, runs.
 */
function credentialFreeConfig(): string {
  if (emptyConfig !== null && existsSync(join(emptyConfig, 'config.json'))) return emptyConfig;
  // one per user, reused across processes when it is this user's and nobody else can write it; else a fresh one
  const shared = join(tmpdir(), `ci-replay-no-credentials-${process.getuid?.() ?? 'user'}`);
  mkdirSync(shared, { recursive: true, mode: 0o755 });
  const info = lstatSync(shared);
  const dir = info.isDirectory() && info.uid === process.getuid?.() && (info.mode & 0o022) === 0 ? shared : mkdtempSync(join(tmpdir(), 'ci-replay-no-credentials-'));
  const file = join(dir, 'config.json');
  if (!existsSync(file) || readFileSync(file, 'utf8') !== '{}\n') writeFileSync(file, '{}\n', { mode: 0o644 });
  emptyConfig = dir;
  return dir;
}

/**
 * The environment of every runtime CLI call: enough to find the daemon, nothing of the worker's. The runtime's own
 * socket settings (DOCKER_HOST, CONTAINER_HOST, XDG_RUNTIME_DIR, read by src/config.ts) are the one thing taken from it.
 */
export function cliEnv(runtime: Pick<ContainerRuntime, 'daemonEnv'>): Record<string, string> {
  return { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', DOCKER_CONFIG: credentialFreeConfig(), ...runtime.daemonEnv };
}

const CANDIDATES: Record<'docker' | 'podman', string[]> = { docker: ['docker'], podman: ['podman'] };

async function probe(kind: 'docker' | 'podman', daemonEnv: Record<string, string>): Promise<ContainerRuntime | string> {
  const bin = CANDIDATES[kind].map((name) => systemTool(name)).find((p) => p !== null) ?? null;
  if (bin === null) return `${kind}: CLI not found`;
  const answer = await cli({ bin, daemonEnv }, ['version', '--format', '{{.Server.Version}}'], { timeoutMs: 10_000 });
  if (answer.code !== 0 || answer.stdout.trim() === '') return `${kind}: the daemon does not answer (${(answer.stderr.trim().split('\n')[0] ?? '').slice(0, 200)})`;
  return { kind, bin, version: answer.stdout.trim(), daemonEnv };
}

const cache = new Map<string, Promise<{ runtime: ContainerRuntime | null; reason: string }>>();

/**
 * The runtime jobs run in (probed once per process): `host` never probes; `docker`/`podman` that one; `auto`
 * docker, then podman. `reason` says why none was picked (or which was).
 */
export function detectRuntime(choice: RuntimeChoice, daemonEnv: Record<string, string>, fresh = false): Promise<{ runtime: ContainerRuntime | null; reason: string }> {
  const key = `${choice} ${JSON.stringify(daemonEnv)}`;
  const cached = cache.get(key);
  if (cached !== undefined && !fresh) return cached;
  const result = (async () => {
    if (choice === 'host') return { runtime: null, reason: 'LOCAL_RUNTIME=host' };
    const kinds: Array<'docker' | 'podman'> = choice === 'auto' ? ['docker', 'podman'] : [choice];
    const reasons: string[] = [];
    for (const kind of kinds) {
      const found = await probe(kind, daemonEnv);
      if (typeof found !== 'string') return { runtime: found, reason: `${kind} ${found.version} (${found.bin})` };
      reasons.push(found);
    }
    return { runtime: null, reason: reasons.join('; ') };
  })();
  cache.set(key, result);
  return result;
}
