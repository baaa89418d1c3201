import { lookup } from 'node:dns/promises';
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { firstLine, runCommand, systemTool } from './host-commands.js';

export interface FirewallSpec {
  chain: string;
  uids: { first: number; last: number };
  /** TCP ports refused on every local address of this host. */
  ports: number[];
  /** Endpoints on other hosts refused as well (resolved when the rules are installed). */
  endpoints: Array<{ host: string; port: number }>;
}

export type FirewallResult = { ok: true; detail: string } | { ok: false; reason: string };

/** Installations made by this process, by spec: their chain and result. */
const installed = new Map<string, { chain: string; result: Promise<FirewallResult> }>();

/**
 * Installs, once per process and idempotently (rules are checked with `-C` before they are appended, so several
 * workers can share the chain), iptables and ip6tables rules that refuse the step uids TCP connections to the
 * service's ports on this host's own addresses, to the remote service endpoints and to link-local addresses (cloud
 * metadata). Needs root and iptables; otherwise resolves with the reason and installs nothing.
 */
export function installStepFirewall(spec: FirewallSpec): Promise<FirewallResult> {
  const key = JSON.stringify(spec);
  const known = installed.get(key);
  if (known !== undefined) return known.result;
  const result = install(spec);
  installed.set(key, { chain: spec.chain, result });
  return result;
}

/** Whether egress rules could be installed here, without installing any (for `ci-replay doctor`). */
export async function firewallAvailable(): Promise<FirewallResult> {
  if (process.geteuid?.() !== 0) return { ok: false, reason: 'the worker is not root' };
  const tools = families();
  if (tools.length === 0) return { ok: false, reason: 'iptables is not installed' };
  for (const family of tools) {
    const listed = await runCommand(family.tool, ['-w', '5', '-S', 'OUTPUT']);
    if (listed.code !== 0) return { ok: false, reason: `${family.name} -S failed: ${firstLine(listed.stderr)}` };
  }
  return { ok: true, detail: tools.map((t) => t.name).join(' and ') };
}

/** Removes the chain and the OUTPUT jump (tests; an operator uninstalling). */
export async function removeStepFirewall(chain: string): Promise<void> {
  for (const family of families()) {
    while ((await runCommand(family.tool, ['-w', '5', '-D', 'OUTPUT', '-j', chain])).code === 0);
    await runCommand(family.tool, ['-w', '5', '-F', chain]);
    await runCommand(family.tool, ['-w', '5', '-X', chain]);
  }
  for (const [key, entry] of installed) if (entry.chain === chain) installed.delete(key);
}

interface Family {
  name: 'iptables' | 'ip6tables';
  tool: string;
  version: 4 | 6;
}

function ipv6Enabled(): boolean {
  return existsSync('/proc/net/if_inet6') && readFileSync('/proc/net/if_inet6', 'utf8').trim() !== '';
}

function families(): Family[] {
  const v4 = systemTool('iptables');
  const v6 = systemTool('ip6tables');
  const out: Family[] = [];
  if (v4 !== null) out.push({ name: 'iptables', tool: v4, version: 4 });
  if (v6 !== null && ipv6Enabled()) out.push({ name: 'ip6tables', tool: v6, version: 6 });
  return out;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function addresses(host: string): Promise<Array<{ address: string; family: number }>> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) !== 0) return [{ address: bare, family: isIP(bare) }];
  try {
    return await lookup(bare, { all: true });
  } catch {
    return [];
  }
}

async function install(spec: FirewallSpec): Promise<FirewallResult> {
  const available = await firewallAvailable();
  if (!available.ok) return available;
  if (ipv6Enabled() && systemTool('ip6tables') === null) return { ok: false, reason: 'IPv6 is enabled but ip6tables is not installed' };
  const owner = ['-m', 'owner', '--uid-owner', spec.uids.first === spec.uids.last ? `${spec.uids.first}` : `${spec.uids.first}-${spec.uids.last}`];
  const reject = ['-j', 'REJECT', '--reject-with', 'tcp-reset'];
  const ports = [...new Set(spec.ports)].sort((a, b) => a - b);
  const remote = (await Promise.all(spec.endpoints.map(async (e) => (await addresses(e.host)).map((a) => ({ ...a, port: e.port }))))).flat();
  for (const family of families()) {
    const rules: string[][] = chunks(ports, 15).map((group) => ['-p', 'tcp', ...owner, '-m', 'addrtype', '--dst-type', 'LOCAL', '-m', 'multiport', '--dports', group.join(','), ...reject]);
    for (const endpoint of remote.filter((a) => a.family === family.version)) {
      rules.push(['-p', 'tcp', ...owner, '-d', endpoint.address, '--dport', String(endpoint.port), ...reject]);
    }
    if (family.version === 4) rules.push([...owner, '-d', '169.254.0.0/16', '-j', 'REJECT']);
    const created = await runCommand(family.tool, ['-w', '5', '-N', spec.chain]);
    if (created.code !== 0 && !/exists/i.test(created.stderr)) return { ok: false, reason: `${family.name} -N ${spec.chain}: ${firstLine(created.stderr)}` };
    for (const rule of rules) {
      if ((await runCommand(family.tool, ['-w', '5', '-C', spec.chain, ...rule])).code === 0) continue;
      const added = await runCommand(family.tool, ['-w', '5', '-A', spec.chain, ...rule]);
      if (added.code !== 0) return { ok: false, reason: `${family.name} could not add a rule: ${firstLine(added.stderr)}` };
    }
    if ((await runCommand(family.tool, ['-w', '5', '-C', 'OUTPUT', '-j', spec.chain])).code !== 0) {
      const jumped = await runCommand(family.tool, ['-w', '5', '-I', 'OUTPUT', '1', '-j', spec.chain]);
      if (jumped.code !== 0) return { ok: false, reason: `${family.name} could not add the OUTPUT jump: ${firstLine(jumped.stderr)}` };
    }
  }
  const blocked = [...ports.map((p) => `local:${p}`), ...remote.map((a) => `${a.address}:${a.port}`)];
  return { ok: true, detail: `chain ${spec.chain} refuses uids ${owner[3] ?? ''} TCP to ${blocked.join(', ') || 'nothing'} and link-local addresses` };
}
