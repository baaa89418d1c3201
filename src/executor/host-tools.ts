import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface HostInterpreter {
  version: string;
  /** Absolute path of the interpreter binary. */
  binary: string;
}

async function versionOf(binary: string, pattern: RegExp): Promise<string | null> {
  try {
    const { stdout, stderr } = await run(binary, ['--version'], { timeout: 5000 });
    return pattern.exec(`${stdout}${stderr}`)?.[1] ?? null;
  } catch {
    return null;
  }
}

/** Python interpreters on this host: `python3*` in the PATH directories and pyenv-style version dirs. */
export async function findPythons(pathDirs: string[], versionDirs: string[]): Promise<HostInterpreter[]> {
  const found = new Map<string, HostInterpreter>();
  for (const root of versionDirs) {
    if (!existsSync(root)) continue;
    for (const name of readdirSync(root).sort()) {
      const binary = join(root, name, 'bin', 'python');
      if (/^\d+\.\d+(\.\d+)?$/.test(name) && existsSync(binary)) found.set(binary, { version: name, binary });
    }
  }
  const candidates = new Set<string>();
  for (const dir of pathDirs) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (/^python3(\.\d+)?$/.test(name)) candidates.add(join(dir, name));
    }
  }
  const probed = await Promise.all(
    [...candidates].map(async (binary) => ({ binary, version: await versionOf(binary, /Python (\d+\.\d+\.\d+)/) })),
  );
  for (const p of probed) {
    if (p.version !== null && ![...found.values()].some((f) => f.version === p.version)) {
      found.set(p.binary, { version: p.version, binary: p.binary });
    }
  }
  return [...found.values()].sort((a, b) => compareVersions(b.version, a.version));
}

/** `node` on the given PATH directories. */
export async function findNodes(pathDirs: string[]): Promise<HostInterpreter[]> {
  const out: HostInterpreter[] = [];
  for (const dir of pathDirs) {
    const binary = join(dir, 'node');
    if (!existsSync(binary)) continue;
    const version = await versionOf(binary, /v?(\d+\.\d+\.\d+)/);
    if (version !== null && !out.some((o) => o.version === version)) out.push({ version, binary });
  }
  return out;
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Whether `version` satisfies a setup-* version spec: `3`, `3.11`, `3.11.7`, `3.x`, `3.11.x`,
 * `>=3.9`, `>3.9`, `<=`, `<`, `~3.11`, `^3.9`, `lts/*`/`latest`/`*` (any), `pypy*` (never).
 */
export function versionSatisfies(version: string, spec: string): boolean {
  const s = spec.trim().replace(/^v/, '');
  if (s === '' || s === '*' || s === 'x' || s === 'latest' || s.startsWith('lts/') || s === 'node') return true;
  if (s.startsWith('pypy') || s.startsWith('graalpy')) return false;
  const range = /^(>=|<=|>|<|\^|~)\s*(\d+(?:\.\d+)*)/.exec(s);
  if (range?.[1] !== undefined && range[2] !== undefined) {
    const [, op, bound] = range;
    const cmp = compareVersions(version, bound);
    if (op === '>=') return cmp >= 0;
    if (op === '>') return cmp > 0;
    if (op === '<=') return cmp <= 0;
    if (op === '<') return cmp < 0;
    const parts = bound.split('.');
    const prefix = op === '^' ? parts.slice(0, 1) : parts.slice(0, 2);
    return cmp >= 0 && version.split('.').slice(0, prefix.length).join('.') === prefix.join('.');
  }
  const wanted = s.replace(/(\.x)+$/i, '').replace(/-dev$/, '').split('.');
  return version.split('.').slice(0, wanted.length).join('.') === wanted.join('.');
}
