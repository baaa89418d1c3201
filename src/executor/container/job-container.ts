import { randomBytes, randomInt } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, systemTool } from '../sandbox/host-commands.js';
import type { JobSandbox } from '../sandbox/job-sandbox.js';
import { PROTECTED_TEMP_ENTRIES } from '../sandbox/job-sandbox.js';
import type { Membership } from '../sandbox/job-processes.js';
import { killJobProcesses, pauseJobProcesses, resumeJobProcesses } from '../sandbox/job-processes.js';
import type { StepLimits } from '../sandbox/settings.js';
import { checkOptions } from './docker-options.js';
import { resolveImage } from './image-resolution.js';
import type { ContainerSpec, ServiceSpec } from './job-spec.js';
import { servicePorts } from './job-spec.js';
import type { ContainerRuntime } from './runtime.js';
import { cli, cliEnv } from './runtime.js';
import type { ContainerSettings } from './settings.js';
import { execAsRoot, inspectContainer, removeContainers, runDetached } from './container-calls.js';
import { engineApi } from './engine-api.js';
import { childrenOf, commandOf, hostPidOfChild } from './host-pids.js';
import { startService } from './services.js';
import type { StepRunner } from './step-runner.js';
import { connectStepRunner, RUNNER_SCRIPT, RUNNER_SOCKET_DIR, runnerEntrypoint, STEP_RUNNER_SOURCE } from './step-runner.js';

/** Where GitHub's runner puts its own Node.js inside job containers (`/__e/node20/bin/node`). */
export const CONTAINER_NODE = '/__e/node20/bin/node';

/** A started job container: a {@link JobSandbox} (steps start through its step runner, else `docker exec`) plus what the job contexts need. */
export interface JobContainer extends JobSandbox {
  runtime: ContainerRuntime;
  name: string;
  image: string;
  uid: number;
  gid: number;
  /** Executables of the image's system directories (for shell lookup without an exec per step). */
  systemFiles: Set<string>;
  /** Host directories bound at the same path (job directory, toolchains, source view): found on the host. */
  boundDirs: string[];
  /** `job.services.<id>`: ports (container port → port on localhost), network, id. */
  services: Record<string, { id: string; network: string; ports: Record<string, string> }>;
  node: string | null;
}

export interface StartJobContainer {
  runtime: ContainerRuntime;
  settings: ContainerSettings;
  limits: StepLimits;
  runAsUid: { first: number; last: number };
  runAsGid: number | null;
  jobId: string;
  dirs: { jobDir: string; workspace: string; temp: string; privateDir: string };
  /** The runner image for the job's labels (used when there is no `container:`). */
  runnerImage: string;
  container: ContainerSpec | null;
  services: ServiceSpec[];
  readOnly: string[];
  gitSafeDirectories: string[];
  /** Lines for the job log's "Set up job" group. */
  note: (line: string) => void;
}

const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const activeUids = new Set<number>();

function pickUid(range: { first: number; last: number }): number {
  const size = range.last - range.first + 1;
  for (let attempt = 0; attempt < 64; attempt += 1) {
    const uid = range.first + (size > 1 ? randomInt(0, size) : 0);
    if (!activeUids.has(uid)) return uid;
  }
  return range.first + randomInt(0, size);
}

export function containerName(jobId: string, suffix = ''): string {
  const base = jobId.replace(/[^a-zA-Z0-9_.-]/g, '-').slice(0, 60);
  return `ci-replay-${base}-${randomBytes(3).toString('hex')}${suffix}`;
}

function sanitizeHost(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 63) || 'job';
}

async function layOut(dirs: StartJobContainer['dirs'], uid: number, gid: number, gitSafe: string[]): Promise<{ home: string; tmp: string }> {
  const home = join(dirs.jobDir, 'home');
  const tmp = join(dirs.jobDir, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  mkdirSync(dirs.privateDir, { recursive: true, mode: 0o700 });
  chmodSync(dirs.jobDir, 0o1777);
  chmodSync(dirs.temp, 0o1777);
  const safe = gitSafe.map((dir) => `\tdirectory = ${dir}\n`).join('');
  if (safe !== '') writeFileSync(join(home, '.gitconfig'), `[safe]\n${safe}`, { mode: 0o644 });
  for (const dir of [dirs.workspace, home, tmp, ...(safe === '' ? [] : [join(home, '.gitconfig')])]) chownSync(dir, uid, gid);
  chmodSync(tmp, 0o1777);
  return { home, tmp };
}

/**
 * Starts a job's container (and its services, in its network namespace): `sh` as PID 1 runs the step runner
 * (step-runner.ts; `tail -f /dev/null` where it cannot run), the job directory is bound at its own path (so the
 * workspace, RUNNER_TEMP and the file-command files have the same path inside and out), /tmp is the job's `tmp`, the
 * toolchains and the run's source view are bound read-only, no capabilities, no_new_privs, the job's limits,
 * `--network none` (only loopback, which the services share) unless `egress`. Steps run as an unprivileged uid (one
 * per job, from EXECUTOR_RUN_AS_UID) named `runner`. The calls go to the Engine API over the runtime's socket (the
 * CLI where there is none, or for a `container:` job's `options`). Throws with a clear message when the image is
 * missing and cannot be pulled, or a service fails its health check.
 */
export async function startJobContainer(req: StartJobContainer): Promise<JobContainer> {
  const { runtime, settings, limits } = req;
  const api = engineApi(runtime);
  const root = settings.user === 'root';
  const uid = root ? 0 : pickUid(req.runAsUid);
  const gid = root ? 0 : (req.runAsGid ?? uid);
  if (!root) activeUids.add(uid);
  const name = containerName(req.jobId);
  const started: string[] = [];
  let runner: StepRunner | null = null;
  const runnerDir = mkdtempSync(join(tmpdir(), 'ci-replay-runner-'));
  const release = async (): Promise<void> => {
    runner?.close();
    if (started.length > 0) await removeContainers(runtime, api, started.splice(0));
    rmSync(runnerDir, { recursive: true, force: true });
    if (!root) activeUids.delete(uid);
  };
  try {
    const { home, tmp } = await layOut(req.dirs, uid, gid, req.gitSafeDirectories);
    const wanted = req.container?.image ?? req.runnerImage;
    const image = await resolveImage(runtime, wanted, req.note);
    if (req.container?.credentials === true) req.note('container credentials: ignored (registry credentials are never passed to the runtime)');
    let network = 'none';
    if (settings.network === 'egress') {
      const net = await cli(runtime, ['network', 'inspect', '--format', '{{.Name}}', settings.egressNetwork], { timeoutMs: 15_000 });
      if (net.code === 0) network = settings.egressNetwork;
      else req.note(`Network: none (LOCAL_NETWORK=egress, but the runtime network '${settings.egressNetwork}' does not exist)`);
    }
    req.note(network === 'none' ? 'Network: none (loopback only, shared with the services; LOCAL_NETWORK=none)' : `Network: egress through the runtime network '${network}' (not the host's: host services on loopback stay unreachable)`);
    const readOnly = req.readOnly.filter((d) => existsSync(d));
    const binds = [`${req.dirs.jobDir}:${req.dirs.jobDir}`, `${tmp}:/tmp`, ...readOnly.map((dir) => `${dir}:${dir}:ro`)];
    const hostNode = settings.hostNode ?? process.execPath;
    const node = existsSync(hostNode) ? CONTAINER_NODE : null;
    let entry = { entrypoint: 'tail', cmd: ['-f', '/dev/null'] };
    if (node !== null) {
      binds.push(`${hostNode}:${CONTAINER_NODE}:ro`);
      // the step runner: its script (host-only directory, read-only inside) and its socket's directory (the step uid's)
      const script = join(req.dirs.privateDir, 'step-runner.cjs');
      writeFileSync(script, STEP_RUNNER_SOURCE, { mode: 0o644 });
      chownSync(runnerDir, uid, gid);
      chmodSync(runnerDir, 0o700);
      binds.push(`${script}:${RUNNER_SCRIPT}:ro`, `${runnerDir}:${RUNNER_SOCKET_DIR}`);
      entry = runnerEntrypoint(node);
    }
    const extra = req.container === null ? { args: [] } : checkOptions(req.container.options);
    if ('error' in extra) throw new Error(`container options: ${extra.error}`);
    if (req.container !== null && req.container.volumes.length > 0) req.note(`container volumes: ignored (${req.container.volumes.join(', ')}): host paths are never bound into a job container`);
    const hostname = sanitizeHost(req.jobId);
    await runDetached(runtime, api, {
      name, image, labels: { 'ci-replay.job': req.jobId }, hostname, network,
      extraHosts: req.services.map((s) => `${s.id}:127.0.0.1`), capDropAll: !root, user: `${uid}:${gid}`, limits, cpus: settings.cpus,
      binds, env: req.container?.env ?? {}, envFile: join(req.dirs.privateDir, 'container.env'), ...entry, extraArgs: extra.args,
    });
    started.push(name);
    const inspected = await inspectContainer(runtime, api, name);
    const pid = inspected.pid;
    if (!Number.isInteger(pid) || pid <= 0) throw new Error(`the job container is not running: ${inspected.message}`);
    const pidNamespace = readlinkSync(`/proc/${pid}/ns/pid`);
    const setup = [
      // (podman, through its API, has already written a line for the uid, named after it: replace it)
      ...(root ? [] : [`sed -i '/^[^:]*:[^:]*:${uid}:/d' /etc/passwd 2>/dev/null`, `echo 'runner:x:${uid}:${gid}:runner:${home}:/bin/sh' >> /etc/passwd`, `echo 'runner:x:${gid}:' >> /etc/group`]),
      'chmod 711 /root 2>/dev/null',
      `for d in ${SYSTEM_DIRS.join(' ')}; do for f in "$d"/*; do [ -f "$f" ] && [ -x "$f" ] && echo "$f"; done; done`,
    ].join('; ');
    const prepared = await execAsRoot(runtime, api, name, `${setup}; true`);
    if (prepared.code !== 0) throw new Error(`the job container could not be prepared (does the image have sh?): ${prepared.stderr.trim()}`);
    const systemFiles = new Set(prepared.stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('/')));
    // an exec's environment: docker's PATH and HOSTNAME, the container's (image ENV, container env), HOME from /etc/passwd
    const baseEnv: Record<string, string> = {
      PATH: SYSTEM_DIRS.join(':'), HOSTNAME: hostname,
      ...Object.fromEntries(inspected.env.map((kv) => [kv.slice(0, Math.max(0, kv.indexOf('='))), kv.slice(kv.indexOf('=') + 1)])),
    };
    baseEnv.HOME ??= root ? '/root' : home;
    // until the runner's socket is there, or PID 1 gave up on it (it runs `tail` once the runner could not start)
    if (node !== null) runner = await connectStepRunner(join(runnerDir, 'sock'), 15_000, () => commandOf(pid) === 'sh');
    const runnerPid = runner === null ? null : (childrenOf(pid)[0] ?? null);
    req.note(`Job container: ${name} from ${image}${req.container === null ? '' : ' (container:)'}; steps run as ${root ? 'root' : `uid ${uid} (runner), no capabilities, no_new_privs`}, ${runner === null ? 'each through `docker exec`' : 'started by the step runner in the container'}`);
    req.note(`Limits: memory ${limits.memoryMb} MB (cgroup backstop ${limits.memoryMb + 256} MB), ${limits.maxProcesses} processes, ${settings.cpus} CPUs, CPU time ${limits.cpuSeconds} s per process, files up to ${limits.fileSizeMb} MB`);
    const services: JobContainer['services'] = {};
    for (const service of req.services) {
      const svcName = `${name}-${service.id.replace(/[^a-zA-Z0-9_.-]/g, '-')}`;
      await startService({ runtime, service, name: svcName, jobContainer: name, jobId: req.jobId, limits, settings, privateDir: req.dirs.privateDir, note: req.note, onStarted: () => started.push(svcName) });
      const { ports, unmapped } = servicePorts(service.ports);
      if (unmapped.length > 0) req.note(`Service ${service.id}: ports ${unmapped.join(', ')} are reached on the container port (services share the job's localhost)`);
      services[service.id] = { id: svcName, network: network === 'none' ? `container:${name}` : network, ports };
    }
    const membership: Membership = { pidNamespace, exclude: pid };
    const find = systemTool('find');
    const container: JobContainer = {
      runtime, name, image, uid, gid, systemFiles, boundDirs: [req.dirs.jobDir, ...readOnly], services, node,
      limits, owner: root ? null : { uid, gid }, home, processSlack: 2,
      command: (file, args, cwd, env) => {
        const runtimeEnv = cliEnv(runtime);
        const forward = Object.keys(env ?? {}).flatMap((k) => (k in runtimeEnv ? ['-e', `${k}=${env?.[k] ?? ''}`] : ['-e', k]));
        return {
          file: runtime.bin,
          args: ['exec', '-u', `${uid}:${gid}`, '-w', cwd, ...forward, name, file, ...args],
          cwd: req.dirs.jobDir,
          env: { ...(env ?? {}), ...runtimeEnv },
        };
      },
      // the step runner starts the step (the environment a `docker exec` gives: the container's, then the step's)
      spawn: (options) => {
        if (runner === null || !runner.alive() || runnerPid === null) return undefined;
        return runner.spawn({ ...options, env: { ...baseEnv, ...options.env } }, (containerPid) => hostPidOfChild(runnerPid, containerPid));
      },
      membership: () => membership,
      alive: () => {
        try {
          return readlinkSync(`/proc/${pid}/ns/pid`) === pidNamespace;
        } catch {
          return false;
        }
      },
      pause: async () => {
        if (!(await pauseJobProcesses(membership))) await killJobProcesses(membership);
      },
      resume: () => resumeJobProcesses(membership),
      handOver: async () => {
        if (root || find === null) return;
        const chown = ['(', '-type', 'd', '-o', '-type', 'l', '-o', '-links', '1', ')', '-uid', '0', '-exec', 'chown', '-h', `${uid}:${gid}`, '{}', '+'];
        for (const dir of [req.dirs.workspace, home, tmp]) await runCommand(find, [dir, '-xdev', ...chown], 300_000);
        const prune = PROTECTED_TEMP_ENTRIES.flatMap((entry, i) => [...(i === 0 ? [] : ['-o']), '-path', join(req.dirs.temp, entry)]);
        await runCommand(find, [req.dirs.temp, '-xdev', '-mindepth', '1', '(', ...prune, ')', '-prune', '-o', ...chown], 300_000);
      },
      ownFile: (path) => {
        if (!root) chownSync(path, uid, gid);
      },
      stop: release,
    };
    return container;
  } catch (error) {
    await release();
    throw error;
  }
}
