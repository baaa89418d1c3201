import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { ContainerRuntime } from './runtime.js';
import { cliEnv } from './runtime.js';

/**
 * The Docker Engine API over the daemon's unix socket (plain node:http; Podman serves the same API on its socket):
 * the hot path of jobs in containers (create, start, inspect, exec, remove) without a CLI process per call.
 * Anonymous: no registry credentials are ever sent.
 */
export interface EngineApi {
  socketPath: string;
  /** One call; resolves with the status and the body (JSON parsed when it is JSON); rejects only when the socket fails. */
  call<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, timeoutMs?: number): Promise<{ status: number; body: T | string }>;
  /** Runs a command in a running container (exec create, start, inspect): its stdout, stderr and exit code. */
  exec(container: string, options: { user: string; cmd: string[]; timeoutMs?: number }): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** The runtime's socket: DOCKER_HOST / CONTAINER_HOST `unix://…`, else the runtime's default path; null if absent. */
export function engineSocket(runtime: Pick<ContainerRuntime, 'kind' | 'daemonEnv'>): string | null {
  const env = cliEnv(runtime);
  const configured = runtime.kind === 'docker' ? env.DOCKER_HOST : (env.CONTAINER_HOST ?? env.DOCKER_HOST);
  if (configured !== undefined) return configured.startsWith('unix://') && existsSync(configured.slice(7)) ? configured.slice(7) : null;
  const candidates = runtime.kind === 'docker'
    ? ['/var/run/docker.sock', '/run/docker.sock']
    : ['/run/podman/podman.sock', ...(env.XDG_RUNTIME_DIR !== undefined ? [join(env.XDG_RUNTIME_DIR, 'podman', 'podman.sock')] : [])];
  return candidates.find((path) => existsSync(path)) ?? null;
}

/** Splits docker's multiplexed stream (8-byte frame headers: stream 1 stdout, 2 stderr). */
function demultiplex(data: Buffer): { stdout: string; stderr: string } {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let at = 0;
  while (at + 8 <= data.length) {
    const kind = data[at];
    const size = data.readUInt32BE(at + 4);
    const frame = data.subarray(at + 8, at + 8 + size);
    if (kind === 2) err.push(frame);
    else out.push(frame);
    at += 8 + size;
  }
  return { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

function raw(socketPath: string, method: string, path: string, body: unknown, timeoutMs: number): Promise<{ status: number; data: Buffer; json: boolean }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(
      {
        socketPath, method, path, timeout: timeoutMs,
        headers: { Host: 'localhost', ...(payload !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, data: Buffer.concat(chunks), json: (res.headers['content-type'] ?? '').includes('json') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer from ${socketPath} within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** The Engine API of a runtime, or null when its socket is not there (the CLI is used instead). */
export function engineApi(runtime: Pick<ContainerRuntime, 'kind' | 'daemonEnv'>): EngineApi | null {
  const socketPath = engineSocket(runtime);
  if (socketPath === null) return null;
  const call: EngineApi['call'] = async (method, path, body, timeoutMs = 120_000) => {
    const r = await raw(socketPath, method, path, body, timeoutMs);
    const text = r.data.toString('utf8');
    if (!r.json) return { status: r.status, body: text };
    try {
      return { status: r.status, body: JSON.parse(text) as never };
    } catch {
      return { status: r.status, body: text };
    }
  };
  return {
    socketPath,
    call,
    exec: async (container, options) => {
      const timeoutMs = options.timeoutMs ?? 60_000;
      const created = await call<{ Id?: string; message?: string }>('POST', `/containers/${encodeURIComponent(container)}/exec`, {
        User: options.user, Cmd: options.cmd, AttachStdout: true, AttachStderr: true, AttachStdin: false, Tty: false,
      }, timeoutMs);
      const id = typeof created.body === 'object' ? created.body.Id : undefined;
      if (created.status !== 201 || id === undefined) return { code: 126, stdout: '', stderr: errorMessage(created.body) };
      const started = await raw(socketPath, 'POST', `/exec/${id}/start`, { Detach: false, Tty: false }, timeoutMs);
      if (started.status !== 200) return { code: 126, stdout: '', stderr: started.data.toString('utf8') };
      const { stdout, stderr } = demultiplex(started.data);
      const inspected = await call<{ ExitCode?: number | null }>('GET', `/exec/${id}/json`, undefined, timeoutMs);
      const code = typeof inspected.body === 'object' && typeof inspected.body.ExitCode === 'number' ? inspected.body.ExitCode : 1;
      return { code, stdout, stderr };
    },
  };
}

/** The daemon's error message of a failed call (`{"message": …}`), or its text. */
export function errorMessage(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') return body.message;
  return String(body).trim().slice(0, 500);
}
