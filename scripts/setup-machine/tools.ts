/**
 * What the bundled example and the tests run on this host, resolved the way the local executor resolves it: steps
 * get the executor's PATH (`toolsPath`), `actions/setup-python` picks an interpreter from the `python3*` on that
 * PATH and ~/.pyenv/versions (`findPythons`, the executor's own code), and a job that ran setup-python finds
 * commands in that interpreter's directory first. The setup, the demo and the tests' helper
 * (test/support/python-tools.ts) all call `checkTools`, so they agree on which interpreter and which tools count.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { findPythons, versionSatisfies, type HostInterpreter } from '../../src/executor/host-tools.js';
import { projectRoot } from '../../src/paths.js';

const run = promisify(execFile);

/** `demo`: what `npm run demo` needs (flake8, black, pytest); `tests`: everything the test suite runs. */
export type SetupScope = 'demo' | 'tests';

/** The local executor's step PATH when the service gives it none (DEFAULT_PATH in src/executor/run-workflow). */
export const EXECUTOR_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The Python version the example's jobs and the tests' workflows ask setup-python for. */
export const SETUP_PYTHON_VERSION = '3.11';

/** The project-local virtual environment the setup creates when it cannot use apt but reaches a package index. */
export const venvDir = (): string => join(projectRoot(), '.venv');

/**
 * The PATH the local executor's steps get: CI_REPLAY_TOOLS_PATH when set (a machine whose tools live elsewhere;
 * the fresh-machine test hides them with it); for the demo, which hands this PATH to its executor, the project's
 * .venv first when the setup created one; otherwise the executor's default PATH (what the tests' executor runs use).
 */
export function toolsPath(scope: SetupScope, env: NodeJS.ProcessEnv = process.env): string {
  const override = env.CI_REPLAY_TOOLS_PATH;
  if (override !== undefined && override !== '') return override;
  const venvBin = join(venvDir(), 'bin');
  if (scope !== 'demo' || !existsSync(join(venvBin, 'python3'))) return EXECUTOR_PATH;
  // The venv's root is listed too: the step sandbox shows the PATH directories read-only and hides /root and
  // /home otherwise, and without pyvenv.cfg and lib/ the venv's python would not see its own packages.
  return [venvBin, venvDir(), EXECUTOR_PATH].join(delimiter);
}

/** The first executable `name` in `dirs`, or null (what a shell's PATH lookup finds). */
export function which(name: string, dirs: string[]): string | null {
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      continue;
    }
  }
  return null;
}

/** Debian's own interpreter (not a virtual environment, not pyenv's): its modules come from `python3-*` packages. */
export function isDebianPython(binary: string): boolean {
  if (existsSync(join(dirname(dirname(binary)), 'pyvenv.cfg'))) return false;
  try {
    return realpathSync(binary).startsWith('/usr/bin/');
  } catch {
    return false;
  }
}

type Interpreter = 'python3' | 'setup-python';

interface Requirement {
  /** What is checked, as printed: `flake8`, `pytest (python3)`. */
  name: string;
  scopes: SetupScope[];
  /** A command found on the tools PATH (`afterSetupPython`: as a job that ran setup-python first finds it), a module of an interpreter, or the interpreter itself. */
  kind: 'command' | 'module' | 'interpreter';
  command?: string;
  versionArgs?: string[];
  afterSetupPython?: boolean;
  /** Looked up on this process's PATH instead of the tools PATH (what the executor itself runs, not its steps). */
  onHostPath?: boolean;
  interpreter?: Interpreter;
  module?: string;
  /** The Debian package that provides it, and the PyPI project (when pip can). */
  debian: string;
  pip?: string;
  /** Who runs it (printed with what is missing). */
  usedBy: string;
}

const BOTH: SetupScope[] = ['demo', 'tests'];
const TESTS: SetupScope[] = ['tests'];

const REQUIREMENTS: Requirement[] = [
  { name: 'git', scopes: BOTH, kind: 'command', command: 'git', onHostPath: true, debian: 'git', usedBy: 'the pipeline and the checkout step' },
  { name: `python ${SETUP_PYTHON_VERSION}`, scopes: BOTH, kind: 'interpreter', interpreter: 'setup-python', debian: 'python3', usedBy: `jobs with setup-python ${SETUP_PYTHON_VERSION}` },
  { name: `pytest (python ${SETUP_PYTHON_VERSION})`, scopes: BOTH, kind: 'module', interpreter: 'setup-python', module: 'pytest', debian: 'python3-pytest', pip: 'pytest', usedBy: "the example's test job (python -m pytest)" },
  { name: 'flake8', scopes: BOTH, kind: 'command', command: 'flake8', afterSetupPython: true, debian: 'flake8', pip: 'flake8', usedBy: "the example's lint job" },
  { name: 'black', scopes: BOTH, kind: 'command', command: 'black', debian: 'black', pip: 'black', usedBy: "the example's format job" },
  { name: `pip (python ${SETUP_PYTHON_VERSION})`, scopes: TESTS, kind: 'module', interpreter: 'setup-python', module: 'pip', debian: 'python3-pip', pip: 'pip', usedBy: 'template workflows (python -m pip)' },
  { name: 'python3', scopes: TESTS, kind: 'interpreter', interpreter: 'python3', debian: 'python3', usedBy: 'steps without setup-python' },
  { name: 'pytest (python3)', scopes: TESTS, kind: 'module', interpreter: 'python3', module: 'pytest', debian: 'python3-pytest', pip: 'pytest', usedBy: 'tests running python3 -m pytest' },
  { name: 'pip (python3)', scopes: TESTS, kind: 'module', interpreter: 'python3', module: 'pip', debian: 'python3-pip', pip: 'pip', usedBy: 'tests running python3 -m pip' },
  ...(['isort', 'mypy', 'pylint', 'pydocstyle'] as const).map((tool): Requirement => ({
    name: tool, scopes: TESTS, kind: 'command', command: tool, versionArgs: tool === 'isort' ? ['--version-number'] : ['--version'], debian: tool, pip: tool, usedBy: 'the log corpus and classification tests',
  })),
  { name: 'unshare', scopes: TESTS, kind: 'command', command: 'unshare', onHostPath: true, debian: 'util-linux', usedBy: "the executor's step sandbox" },
  { name: 'setpriv', scopes: TESTS, kind: 'command', command: 'setpriv', onHostPath: true, debian: 'util-linux', usedBy: "the executor's step sandbox" },
  { name: 'ip', scopes: TESTS, kind: 'command', command: 'ip', versionArgs: ['-V'], onHostPath: true, debian: 'iproute2', usedBy: "the executor's step sandbox (loopback in a network namespace)" },
  { name: 'iptables', scopes: TESTS, kind: 'command', command: 'iptables', onHostPath: true, debian: 'iptables', usedBy: "the executor's step sandbox (egress rules)" },
  { name: 'chromium', scopes: TESTS, kind: 'command', command: 'chromium', onHostPath: true, debian: 'chromium', usedBy: 'the dashboard tests (playwright-core, /usr/bin/chromium)' },
];

export interface ToolCheck {
  name: string;
  ok: boolean;
  /** The file that was run (null when nothing was found). */
  path: string | null;
  /** The failure, or the tool's version line. */
  detail: string;
  usedBy: string;
  /** A Debian package that would provide it (null: apt cannot help, e.g. a module of pyenv's or a venv's interpreter). */
  debian: string | null;
  /** `<interpreter> -m pip install <project>` when only pip can provide it (for an interpreter that is not Debian's). */
  pipCommand: string | null;
  /** The PyPI project, for a project-local virtual environment. */
  pip: string | null;
}

export interface ToolsReport {
  scope: SetupScope;
  /** The PATH the executor's steps get, as checked. */
  toolsPath: string;
  /** `python3` on that PATH: what steps without setup-python run. */
  python3: string | null;
  /** What setup-python picks for SETUP_PYTHON_VERSION. */
  setupPython: HostInterpreter | null;
  checks: ToolCheck[];
  missing: ToolCheck[];
}

async function firstLine(binary: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ok: boolean; line: string }> {
  try {
    const { stdout, stderr } = await run(binary, args, { timeout: 60_000, env: { ...env, PYTHONDONTWRITEBYTECODE: '1' } });
    return { ok: true, line: `${stdout}${stderr}`.trim().split('\n')[0] ?? '' };
  } catch (error) {
    const failure = error as { stderr?: string; message?: string };
    const text = (failure.stderr ?? '').trim() || (failure.message ?? String(error));
    return { ok: false, line: text.split('\n').filter((l) => l.trim() !== '').pop() ?? text };
  }
}

/**
 * Checks every requirement of `scope` as the executor would meet it. Nothing is installed here; `runnable` probes
 * run in parallel (each tool's `--version`, each module's `-m <module> --version`), about a second in all.
 */
export async function checkTools(scope: SetupScope, env: NodeJS.ProcessEnv = process.env): Promise<ToolsReport> {
  const path = toolsPath(scope, env);
  const dirs = path.split(delimiter).filter((d) => d !== '');
  const hostDirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  const python3 = which('python3', dirs);
  const pythons = await findPythons(dirs, [join(env.HOME ?? homedir(), '.pyenv', 'versions')]);
  const setupPython = pythons.find((p) => versionSatisfies(p.version, SETUP_PYTHON_VERSION)) ?? null;
  const interpreterOf = (which: Interpreter | undefined): string | null => (which === 'python3' ? python3 : setupPython?.binary ?? null);
  const probeEnv = { PATH: path, HOME: env.HOME ?? homedir(), LANG: env.LANG ?? 'C.UTF-8' };
  const checks = await Promise.all(
    REQUIREMENTS.filter((r) => r.scopes.includes(scope)).map(async (r): Promise<ToolCheck> => {
      const base = { name: r.name, usedBy: r.usedBy, pip: r.pip ?? null, debian: r.debian, pipCommand: null };
      if (r.kind === 'command') {
        const searched = [...new Set(r.onHostPath === true ? [...hostDirs, ...dirs] : r.afterSetupPython === true && setupPython !== null ? [dirname(setupPython.binary), ...dirs] : dirs)];
        const found = which(r.command ?? r.name, searched);
        if (found === null) return { ...base, ok: false, path: null, detail: `not found on PATH ${searched.join(delimiter)}` };
        const probe = await firstLine(found, r.versionArgs ?? ['--version'], probeEnv);
        return { ...base, ok: probe.ok, path: found, detail: probe.line };
      }
      const interpreter = interpreterOf(r.interpreter);
      const what = r.interpreter === 'python3' ? `no python3 on PATH ${path}` : `no Python ${SETUP_PYTHON_VERSION} for setup-python (python3* on PATH ${path}, ${join(env.HOME ?? homedir(), '.pyenv', 'versions')}/*)`;
      if (interpreter === null) return { ...base, ok: false, path: null, detail: what };
      if (r.kind === 'interpreter') return { ...base, ok: true, path: interpreter, detail: r.interpreter === 'setup-python' ? `Python ${setupPython?.version ?? '?'}` : 'found' };
      const probe = await firstLine(interpreter, ['-m', r.module ?? '', '--version'], probeEnv);
      const debian = isDebianPython(interpreter) ? r.debian : null;
      const pipCommand = debian === null && r.pip !== undefined ? `${interpreter} -m pip install ${r.pip}` : null;
      return { ...base, ok: probe.ok, path: interpreter, detail: probe.line, debian, pipCommand };
    }),
  );
  return { scope, toolsPath: path, python3, setupPython, checks, missing: checks.filter((c) => !c.ok) };
}
