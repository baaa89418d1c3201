import type { Logger } from 'pino';
import type { FirewallResult } from './firewall.js';
import { installStepFirewall } from './firewall.js';
import { systemTool } from './host-commands.js';
import type { SandboxFlavor, SandboxSupport, SandboxTools } from './probe.js';
import { probeSandbox } from './probe.js';
import type { SandboxSettings } from './settings.js';

/** What a run's jobs get: decided once per run from the settings, the probe and the firewall. */
export interface SandboxRunPlan {
  settings: SandboxSettings;
  /** Null: steps run on the host (EXECUTOR_SANDBOX=off, or auto without namespaces). */
  namespaces: { flavor: SandboxFlavor; tools: SandboxTools; network: 'none' | 'egress' } | null;
  /** Set when EXECUTOR_SANDBOX=namespaces cannot be honoured: every job fails at "Set up job" with it. */
  unavailable: string | null;
  /** prlimit, for the rlimits of steps (sandboxed or not); null when absent. */
  prlimit: string | null;
  /** Lines for the "Set up job" group of each job log. */
  notes: string[];
}

const warned = new Set<string>();

function warnOnce(logger: Logger, key: string, fields: Record<string, unknown>, message: string): void {
  if (warned.has(key)) return;
  warned.add(key);
  logger.warn(fields, message);
}

/** The sandbox mode, network and reason that this worker would use with these settings (for doctor and the job log). */
export async function describeSandbox(settings: SandboxSettings, support?: SandboxSupport): Promise<{ mode: 'namespaces' | 'off'; detail: string; ok: boolean }> {
  const probe = support ?? (await probeSandbox());
  if (settings.mode === 'off') return { mode: 'off', detail: 'EXECUTOR_SANDBOX=off: steps run on the host as the worker user', ok: true };
  if (!probe.available) {
    return settings.mode === 'namespaces'
      ? { mode: 'off', detail: `EXECUTOR_SANDBOX=namespaces but unavailable: ${probe.reason}`, ok: false }
      : { mode: 'off', detail: `EXECUTOR_SANDBOX=auto: no namespaces (${probe.reason}); steps run on the host as the worker user`, ok: true };
  }
  return { mode: 'namespaces', detail: probe.reason, ok: true };
}

/**
 * Decides the sandbox of a run: probes namespaces (once per process), installs the egress firewall rules (once per
 * process, idempotently) and falls back — auto → off, egress → none — with a warning logged once per process.
 */
export async function planSandbox(settings: SandboxSettings, logger: Logger): Promise<SandboxRunPlan> {
  const prlimit = systemTool('prlimit');
  const limitNotes = [
    prlimit === null
      ? 'Resource limits: prlimit not found; only the executor watchdog (memory, processes, output) applies'
      : `Resource limits per step: memory ${settings.limits.memoryMb} MB, ${settings.limits.maxProcesses} processes, CPU time ${settings.limits.cpuSeconds} s per process, files up to ${settings.limits.fileSizeMb} MB, output ${settings.limits.maxOutputBytes} bytes`,
  ];
  if (settings.mode === 'off') {
    return { settings, namespaces: null, unavailable: null, prlimit, notes: ['Step sandbox: off (EXECUTOR_SANDBOX=off); steps run on the host as the worker user', ...limitNotes] };
  }
  const support = await probeSandbox();
  if (!support.available) {
    if (settings.mode === 'namespaces') {
      return { settings, namespaces: null, unavailable: `The step sandbox is required (EXECUTOR_SANDBOX=namespaces) but this host cannot provide it: ${support.reason}`, prlimit, notes: [] };
    }
    warnOnce(logger, `auto:${support.reason}`, { reason: support.reason }, 'step sandbox unavailable (EXECUTOR_SANDBOX=auto): steps run on the host as the worker user');
    return { settings, namespaces: null, unavailable: null, prlimit, notes: [`Step sandbox: off (EXECUTOR_SANDBOX=auto and ${support.reason}); steps run on the host as the worker user`, ...limitNotes] };
  }
  let network: 'none' | 'egress' = settings.network;
  const loopback = support.tools.ip === null ? 'without loopback: iproute2 ip not found' : 'loopback only';
  let networkNote = network === 'none' ? `Network: none (a network namespace with ${loopback}; EXECUTOR_NETWORK=none)` : '';
  if (network === 'egress') {
    const firewall: FirewallResult =
      support.flavor === 'root'
        ? await installStepFirewall({ chain: settings.firewallChain, uids: settings.runAsUid, ports: settings.blockedPorts, endpoints: settings.blockedEndpoints })
        : { ok: false, reason: 'the worker is not root' };
    if (firewall.ok) networkNote = `Network: egress (host network; ${firewall.detail})`;
    else {
      network = 'none';
      networkNote = `Network: none (${loopback}; EXECUTOR_NETWORK=egress, but the firewall rules could not be installed: ${firewall.reason})`;
      warnOnce(logger, `egress:${firewall.reason}`, { reason: firewall.reason }, 'step egress rules could not be installed: steps get no network (EXECUTOR_NETWORK=egress falls back to none)');
    }
  }
  const who =
    support.flavor === 'root'
      ? `steps run as an unprivileged user (uid ${settings.runAsUid.first}${settings.runAsUid.last === settings.runAsUid.first ? '' : `-${settings.runAsUid.last}`}, one per job)`
      : 'steps keep the worker uid inside an unprivileged user namespace, without capabilities';
  return {
    settings,
    namespaces: { flavor: support.flavor, tools: support.tools, network },
    unavailable: null,
    prlimit,
    notes: [`Step sandbox: namespaces (pid, mount, ipc, uts${network === 'none' ? ', net' : ''}); ${who}`, networkNote, ...limitNotes],
  };
}
