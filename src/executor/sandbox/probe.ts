import { firstLine, runCommand, systemTool } from './host-commands.js';

/**
 * `root`: the worker is root; steps run as an unprivileged uid in pid/mount/ipc/uts(/net) namespaces.
 * `userns`: the worker is not root; the namespaces hang off an unprivileged user namespace and steps run as the
 * worker's own uid (mapped to 0 inside, with no capabilities): weaker, see the README's isolation model.
 */
export type SandboxFlavor = 'root' | 'userns';

export interface SandboxTools {
  unshare: string;
  nsenter: string;
  setpriv: string;
  bash: string;
  /** iproute2, to bring loopback up in a network namespace; without it `none` has no loopback either. */
  ip: string | null;
}

export type SandboxSupport =
  | { available: true; flavor: SandboxFlavor; tools: SandboxTools; reason: string }
  | { available: false; reason: string };

let cached: Promise<SandboxSupport> | null = null;

/** Whether this worker can create the step sandbox (probed once per process by creating one). */
export function probeSandbox(): Promise<SandboxSupport> {
  cached ??= probe();
  return cached;
}

async function probe(): Promise<SandboxSupport> {
  if (process.platform !== 'linux') return { available: false, reason: `namespaces need Linux (this is ${process.platform})` };
  const found = { unshare: systemTool('unshare'), nsenter: systemTool('nsenter'), setpriv: systemTool('setpriv'), bash: systemTool('bash') };
  const missing = Object.entries(found).filter(([, path]) => path === null).map(([name]) => name);
  if (missing.length > 0) return { available: false, reason: `${missing.join(', ')} not found (util-linux and bash are needed)` };
  const tools: SandboxTools = { unshare: found.unshare ?? '', nsenter: found.nsenter ?? '', setpriv: found.setpriv ?? '', bash: found.bash ?? '', ip: systemTool('ip') };
  const flavor: SandboxFlavor = process.geteuid?.() === 0 ? 'root' : 'userns';
  const user = flavor === 'root' ? [] : ['--user', '--map-root-user'];
  const script = `mount -t tmpfs -o size=4k ci-replay-probe /dev/shm${tools.ip === null ? '' : ` && ${tools.ip} link set lo up`}`;
  const result = await runCommand(tools.unshare, [...user, '--mount', '--pid', '--fork', '--mount-proc', '--ipc', '--uts', '--net', '--propagation', 'private', '--', tools.bash, '-c', script]);
  if (result.code !== 0) {
    const why = firstLine(result.stderr) || `exit code ${result.code}`;
    return { available: false, reason: flavor === 'root' ? `namespaces cannot be created: ${why}` : `the worker is not root and unprivileged user namespaces are not allowed: ${why}` };
  }
  const reason =
    flavor === 'root'
      ? 'the worker is root and can create pid, mount, ipc, uts and network namespaces'
      : 'the worker is not root: namespaces inside an unprivileged user namespace (steps keep the worker uid, without capabilities)';
  return { available: true, flavor, tools, reason };
}
