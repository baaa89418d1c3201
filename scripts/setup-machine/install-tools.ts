import { execFile } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { checkTools, venvDir, which, type SetupScope, type ToolsReport } from './tools.js';

const run = promisify(execFile);

export interface EnsureToolsOptions {
  /** Install what is missing when this machine allows it (apt as root or through sudo; pip into .venv for the demo). */
  install: boolean;
  say: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface EnsureToolsResult {
  ok: boolean;
  report: ToolsReport;
  /** Why not, naming what is missing and the command that installs it (null when ok). */
  message: string | null;
}

const unique = (values: (string | null)[]): string[] => [...new Set(values.filter((v): v is string => v !== null))];
const isRoot = (): boolean => process.getuid?.() === 0;

/** How to run apt-get here: as root (no prefix), through passwordless sudo, or not at all (null). */
async function aptPrefix(env: NodeJS.ProcessEnv): Promise<string[] | null> {
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  if (which('apt-get', dirs) === null) return null;
  if (isRoot()) return [];
  if (which('sudo', dirs) === null) return null;
  return run('sudo', ['-n', 'true'], { env, timeout: 10_000 }).then(() => ['sudo'], () => null);
}

async function aptInstall(prefix: string[], packages: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const [command = 'apt-get', ...rest] = [...prefix, 'apt-get'];
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  await run(command, [...rest, 'update', '-qq'], { env: aptEnv, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
  await run(command, [...rest, 'install', '-y', '-qq', ...packages], { env: aptEnv, timeout: 1_800_000, maxBuffer: 64 * 1024 * 1024 });
}

/** Whether the package index pip would use answers (PIP_INDEX_URL, else PyPI), within a few seconds. */
async function indexReachable(env: NodeJS.ProcessEnv): Promise<string | null> {
  const index = (env.PIP_INDEX_URL ?? 'https://pypi.org/simple').replace(/\/+$/, '');
  try {
    const response = await fetch(`${index}/pip/`, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
    return response.ok ? index : null;
  } catch {
    return null;
  }
}

/** Installs what `report` misses, when it can; says what it does. Returns whether it installed anything. */
async function installMissing(report: ToolsReport, options: EnsureToolsOptions, env: NodeJS.ProcessEnv): Promise<boolean> {
  const debian = unique(report.missing.map((c) => c.debian));
  const apt = debian.length > 0 ? await aptPrefix(env) : null;
  if (apt !== null) {
    options.say(`installing with apt-get (${apt.length === 0 ? 'running as root' : 'through sudo'}): ${debian.join(' ')}`);
    await aptInstall(apt, debian, env);
    return true;
  }
  // A virtual environment only helps the demo, which hands .venv/bin to its executor; the tests' executor runs use
  // the executor's default PATH.
  const projects = unique(report.missing.map((c) => c.pip));
  const base = report.python3 ?? report.setupPython?.binary ?? null;
  if (report.scope !== 'demo' || projects.length === 0 || base === null) return false;
  const index = await indexReachable(env);
  if (index === null) return false;
  const venv = venvDir();
  options.say(`installing into ${venv} with pip from ${index} (apt-get is not usable here): ${projects.join(' ')}`);
  await run(base, ['-m', 'venv', venv], { env, timeout: 300_000 });
  await run(join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', ...projects], { env, timeout: 1_800_000, maxBuffer: 64 * 1024 * 1024 });
  return true;
}

/** One message: what is missing (where it was looked for, who needs it) and the commands that install it. */
export function missingMessage(report: ToolsReport, rerun: string): string {
  const lines = [`ci-replay setup: ${report.scope === 'demo' ? 'the example needs' : 'the tests need'} tools this machine does not have:`];
  for (const check of report.missing) lines.push(`  - ${check.name}: ${check.detail} — needed by ${check.usedBy}`);
  const debian = unique(report.missing.map((c) => c.debian));
  const pip = unique(report.missing.map((c) => c.pipCommand));
  lines.push('Install them with:');
  if (debian.length > 0) lines.push(`  ${isRoot() ? '' : 'sudo '}apt-get install -y ${debian.join(' ')}`);
  for (const command of pip) lines.push(`  ${command}`);
  lines.push(`then run \`${rerun}\` again.`);
  return `${lines.join('\n')}\n`;
}

/**
 * Checks the tools `scope` needs and, with `install`, installs what is missing when it can (saying so), then checks
 * again. Never throws for a missing tool: the result carries the message to print.
 */
export async function ensureTools(scope: SetupScope, options: EnsureToolsOptions): Promise<EnsureToolsResult> {
  const env = options.env ?? process.env;
  let report = await checkTools(scope, env);
  if (report.missing.length > 0 && options.install) {
    const installed = await installMissing(report, options, env).catch((error: unknown) => {
      options.say(`installing failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      return false;
    });
    if (installed) report = await checkTools(scope, env);
  }
  if (report.missing.length === 0) return { ok: true, report, message: null };
  return { ok: false, report, message: missingMessage(report, scope === 'demo' ? 'npm run demo' : 'npm test') };
}
