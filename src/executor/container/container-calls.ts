import { rmSync, writeFileSync } from 'node:fs';
import type { StepLimits } from '../sandbox/settings.js';
import type { EngineApi } from './engine-api.js';
import { errorMessage } from './engine-api.js';
import { limitHostConfig, limitOptions } from './limits.js';
import type { CliResult, ContainerRuntime } from './runtime.js';
import { cli } from './runtime.js';

/** A detached container to start (the job container): what `docker run -d` gets, as data. */
export interface RunSpec {
  name: string;
  image: string;
  labels: Record<string, string>;
  hostname: string;
  network: string;
  /** `--add-host` entries (`redis:127.0.0.1`). */
  extraHosts: string[];
  capDropAll: boolean;
  user: string;
  limits: StepLimits;
  cpus: number;
  /** `host:container[:ro]`. */
  binds: string[];
  /** The container's own variables (`container.env`): an env file for the CLI (0600, removed once started), the API's body otherwise. */
  env: Record<string, string>;
  envFile: string;
  entrypoint: string;
  cmd: string[];
  /** Checked `options:` of a `container:` job: these go through the CLI, which parses them. */
  extraArgs: string[];
}

const path = (name: string): string => `/containers/${encodeURIComponent(name)}`;

/**
 * Creates and starts the container: through the Engine API (create, start) when there is one and no `options:` to
 * parse, else `docker run -d`. Throws the daemon's message when it cannot start.
 */
export async function runDetached(runtime: ContainerRuntime, api: EngineApi | null, spec: RunSpec): Promise<void> {
  if (api !== null && spec.extraArgs.length === 0) {
    const created = await api.call('POST', `/containers/create?name=${encodeURIComponent(spec.name)}`, {
      Image: spec.image, Entrypoint: [spec.entrypoint], Cmd: spec.cmd, Hostname: spec.hostname, User: spec.user, Labels: spec.labels,
      Env: Object.entries(spec.env).map(([k, v]) => `${k}=${v.replace(/\n/g, ' ')}`),
      HostConfig: {
        NetworkMode: spec.network, ExtraHosts: spec.extraHosts, CapDrop: spec.capDropAll ? ['ALL'] : [], SecurityOpt: ['no-new-privileges'],
        Binds: spec.binds, ...limitHostConfig(spec.limits, spec.cpus, runtime.kind),
      },
    });
    if (created.status !== 201) throw new Error(`the job container could not start: ${errorMessage(created.body)}`);
    const started = await api.call('POST', `${path(spec.name)}/start`);
    if (started.status !== 204 && started.status !== 304) {
      await api.call('DELETE', `${path(spec.name)}?force=1&v=1`, undefined, 60_000).catch(() => null);
      throw new Error(`the job container could not start: ${errorMessage(started.body)}`);
    }
    return;
  }
  writeFileSync(spec.envFile, Object.entries(spec.env).map(([k, v]) => `${k}=${v.replace(/\n/g, ' ')}`).join('\n'), { mode: 0o600 });
  const run = await cli(runtime, [
    'run', '-d', '--name', spec.name, ...Object.entries(spec.labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]), '--hostname', spec.hostname,
    `--network=${spec.network}`, ...spec.extraHosts.flatMap((h) => ['--add-host', h]), ...(spec.capDropAll ? ['--cap-drop=ALL'] : []),
    '--security-opt', 'no-new-privileges', '--user', spec.user, ...limitOptions(spec.limits, spec.cpus, runtime.kind), ...spec.binds.flatMap((b) => ['-v', b]),
    // podman adds its own /etc/passwd line for an unknown uid (named after the uid); the setup adds `runner`
    ...(runtime.kind === 'podman' ? ['--passwd=false'] : []),
    '--env-file', spec.envFile, ...spec.extraArgs, '--entrypoint', spec.entrypoint, spec.image, ...spec.cmd,
  ], { timeoutMs: 120_000 });
  rmSync(spec.envFile, { force: true });
  if (run.code !== 0) {
    // a container created but not started (a bad option) keeps its name: remove it
    await cli(runtime, ['rm', '-f', ...(runtime.kind === 'podman' ? ['-t', '0'] : []), '-v', spec.name], { timeoutMs: 60_000 });
    throw new Error(`the job container could not start: ${run.stderr.trim()}`);
  }
}

/** The container's main process (host pid) and its configured environment (image ENV + container env, as an exec gets it). */
export async function inspectContainer(runtime: ContainerRuntime, api: EngineApi | null, name: string): Promise<{ pid: number; env: string[]; message: string }> {
  if (api !== null) {
    const r = await api.call<{ State?: { Pid?: number }; Config?: { Env?: string[] | null } }>('GET', `${path(name)}/json`, undefined, 30_000);
    if (typeof r.body !== 'object') return { pid: 0, env: [], message: r.body };
    return { pid: r.body.State?.Pid ?? 0, env: r.body.Config?.Env ?? [], message: '' };
  }
  const r = await cli(runtime, ['inspect', '--format', '{{.State.Pid}} {{json .Config.Env}}', name], { timeoutMs: 30_000 });
  const space = r.stdout.indexOf(' ');
  const pid = Number(r.stdout.slice(0, space));
  let env: string[] = [];
  try {
    env = (JSON.parse(r.stdout.slice(space + 1)) as string[] | null) ?? [];
  } catch {
    // no environment shown
  }
  return { pid: Number.isInteger(pid) ? pid : 0, env, message: r.stderr.trim() || r.stdout.trim() };
}

/** `sh -c <script>` as root in the container (the job container's setup). */
export function execAsRoot(runtime: ContainerRuntime, api: EngineApi | null, name: string, script: string): Promise<CliResult> {
  if (api !== null) return api.exec(name, { user: '0', cmd: ['sh', '-c', script], timeoutMs: 60_000 });
  return cli(runtime, ['exec', '-u', '0', name, 'sh', '-c', script], { timeoutMs: 60_000 });
}

/** `docker rm -f -v` of the job's containers (services first: they live in the job container's namespace). */
export async function removeContainers(runtime: ContainerRuntime, api: EngineApi | null, names: string[]): Promise<void> {
  if (names.length === 0) return;
  // podman's `rm -f` stops with the stop timeout first (10 s: PID 1 ignores SIGTERM); docker's kills at once
  const rm = ['rm', '-f', ...(runtime.kind === 'podman' ? ['-t', '0'] : []), '-v'];
  if (api === null) {
    await cli(runtime, [...rm, ...names], { timeoutMs: 60_000 });
    return;
  }
  await Promise.all([...names].reverse().map(async (name) => {
    const r = await api.call('DELETE', `${path(name)}?force=1&v=1`, undefined, 60_000).catch(() => null);
    if (r === null || (r.status !== 204 && r.status !== 404)) await cli(runtime, [...rm, name], { timeoutMs: 60_000 });
  }));
}
