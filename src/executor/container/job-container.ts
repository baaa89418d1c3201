import { randomBytes, randomInt } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
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
import { limitOptions } from './limits.js';
import { startService } from './services.js';

/** Where GitHub's runner puts its own Node.js inside job containers (`/__e/node20/bin/node`). */
export const CONTAINER_NODE = '/__e/node20/bin/node';

/** A started job container: a {@link JobSandbox} (steps are `docker exec`s into it) plus what the job contexts need. */
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
 * Starts a job's container (and its services, in its network namespace): the image runs `tail -f /dev/null`, the
 * job directory is bound at its own path (so the workspace, RUNNER_TEMP and the file-command files have the same
 * path inside and out), /tmp is the job's `tmp`, the toolchains and the run's source view are bound read-only,
 * no capabilities, no_new_privs, the job's limits, `--network none` (only loopback, which the services share)
 * unless `egress`. Steps run as an unprivileged uid (one per job, from EXECUTOR_RUN_AS_UID) named `runner`.
 * Throws with a clear message when the image is missing and cannot be pulled, or a service fails its health check.
 */
export async function startJobContainer(req: StartJobContainer): Promise<JobContainer> {
  const { runtime, settings, limits } = req;
  const root = settings.user === 'root';
  const uid = root ? 0 : pickUid(req.runAsUid);
  const gid = root ? 0 : (req.runAsGid ?? uid);
  if (!root) activeUids.add(uid);
  const release = (): void => {
    if (!root) activeUids.delete(uid);
  };
  const name = containerName(req.jobId);
  const started: string[] = [];
  const removeAll = async (): Promise<void> => {
    if (started.length > 0) await cli(runtime, ['rm', '-f', '-v', ...started], { timeoutMs: 60_000 });
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
    const bound = [req.dirs.jobDir, ...req.readOnly.filter((d) => existsSync(d))];
    const mounts = ['-v', `${req.dirs.jobDir}:${req.dirs.jobDir}`, '-v', `${tmp}:/tmp`];
    for (const dir of req.readOnly.filter((d) => existsSync(d))) mounts.push('-v', `${dir}:${dir}:ro`);
    const hostNode = settings.hostNode ?? process.execPath;
    const node = existsSync(hostNode) ? CONTAINER_NODE : null;
    if (node !== null) mounts.push('-v', `${hostNode}:${CONTAINER_NODE}:ro`);
    const extra = req.container === null ? { args: [] } : checkOptions(req.container.options);
    if ('error' in extra) throw new Error(`container options: ${extra.error}`);
    if (req.container !== null && req.container.volumes.length > 0) req.note(`container volumes: ignored (${req.container.volumes.join(', ')}): host paths are never bound into a job container`);
    const envFile = join(req.dirs.privateDir, 'container.env');
    writeFileSync(envFile, Object.entries(req.container?.env ?? {}).map(([k, v]) => `${k}=${v.replace(/\n/g, ' ')}`).join('\n'), { mode: 0o600 });
    const hosts = req.services.flatMap((s) => ['--add-host', `${s.id}:127.0.0.1`]);
    const run = await cli(runtime, [
      'run', '-d', '--name', name, '--label', `ci-replay.job=${req.jobId}`, '--hostname', sanitizeHost(req.jobId), `--network=${network}`, ...hosts,
      ...(root ? [] : ['--cap-drop=ALL']), '--security-opt', 'no-new-privileges', '--user', `${uid}:${gid}`,
      ...limitOptions(limits, settings.cpus), ...mounts, '--env-file', envFile, ...extra.args,
      '--entrypoint', 'tail', image, '-f', '/dev/null',
    ], { timeoutMs: 120_000 });
    rmSync(envFile, { force: true });
    if (run.code !== 0) throw new Error(`the job container could not start: ${run.stderr.trim()}`);
    started.push(name);
    const inspect = await cli(runtime, ['inspect', '--format', '{{.State.Pid}}', name], { timeoutMs: 30_000 });
    const pid = Number(inspect.stdout.trim());
    if (!Number.isInteger(pid) || pid <= 0) throw new Error(`the job container is not running: ${inspect.stderr.trim() || inspect.stdout.trim()}`);
    const pidNamespace = readlinkSync(`/proc/${pid}/ns/pid`);
    const setup = [
      ...(root ? [] : [`echo 'runner:x:${uid}:${gid}:runner:${home}:/bin/sh' >> /etc/passwd`, `echo 'runner:x:${gid}:' >> /etc/group`]),
      'chmod 711 /root 2>/dev/null',
      `for d in ${SYSTEM_DIRS.join(' ')}; do for f in "$d"/*; do [ -f "$f" ] && [ -x "$f" ] && echo "$f"; done; done`,
    ].join('; ');
    const prepared = await cli(runtime, ['exec', '-u', '0', name, 'sh', '-c', `${setup}; true`], { timeoutMs: 60_000 });
    if (prepared.code !== 0) throw new Error(`the job container could not be prepared (does the image have sh?): ${prepared.stderr.trim()}`);
    const systemFiles = new Set(prepared.stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('/')));
    req.note(`Job container: ${name} from ${image}${req.container === null ? '' : ' (container:)'}; steps run as ${root ? 'root' : `uid ${uid} (runner), no capabilities, no_new_privs`}`);
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
      runtime, name, image, uid, gid, systemFiles, boundDirs: bound, services, node,
      limits, owner: root ? null : { uid, gid }, home, processSlack: 2,
      command: (file, args, cwd, env) => {
        const runtimeEnv = cliEnv();
        const forward = Object.keys(env ?? {}).flatMap((k) => (k in runtimeEnv ? ['-e', `${k}=${env?.[k] ?? ''}`] : ['-e', k]));
        return {
          file: runtime.bin,
          args: ['exec', '-u', `${uid}:${gid}`, '-w', cwd, ...forward, name, file, ...args],
          cwd: req.dirs.jobDir,
          env: { ...(env ?? {}), ...runtimeEnv },
        };
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
      stop: async () => {
        await removeAll();
        release();
      },
    };
    return container;
  } catch (error) {
    await removeAll();
    release();
    throw error;
  }
}
