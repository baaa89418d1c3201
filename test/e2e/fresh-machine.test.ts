/**
 * The README's commands on a machine without the example's Python tools (issue 13: `npm run demo` printed a table of
 * Environment Errors and exited 0; `npm test` failed 16 tests). The machine is simulated from this checkout: the
 * commands run with a PATH holding only node, npm, git and a shell, HOME without pyenv, and the executor's tools
 * PATH (CI_REPLAY_TOOLS_PATH) holding only a Python 3.11 virtual environment without pytest, flake8 or black — so
 * apt-get is out of reach and the package index does not answer. Both commands must stop with exit code 1 and one
 * message naming what is missing and the command that installs it, and the demo must stop before it creates its
 * database or submits anything. With this machine's real tools, the setup's check is green.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../../scripts/setup-machine/tools.js';
import { projectRoot } from '../../src/paths.js';
import { pythonTools } from '../support/python-tools.js';
import { adminUrl } from '../support/test-database.js';

const exec = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function npm(args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  return exec('npm', args, { cwd: projectRoot(), env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: typeof error.code === 'number' ? error.code : -1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
}

describe('a fresh machine without the Python tools (the README commands)', () => {
  const root = mkdtempSync(join(tmpdir(), 'ci-replay-fresh-'));
  const database = `ci_replay_fresh_${randomBytes(4).toString('hex')}`;
  const bin = join(root, 'bin');
  const venv = join(root, 'py');
  let env: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    mkdirSync(bin);
    mkdirSync(join(root, 'home'));
    const hostPath = (process.env.PATH ?? '/usr/bin:/bin').split(':');
    symlinkSync(process.execPath, join(bin, 'node'));
    for (const tool of ['npm', 'git', 'bash', 'sh', 'env']) {
      const found = which(tool, hostPath);
      if (found === null) throw new Error(`${tool} is not on this machine's PATH`);
      symlinkSync(realpathSync(found), join(bin, tool));
    }
    // the interpreter setup-python would pick, in a virtual environment of its own: Python 3.11 without the tools
    await exec(pythonTools.setupPython, ['-m', 'venv', '--without-pip', venv], { timeout: 60_000 });
    env = {
      PATH: bin,
      HOME: join(root, 'home'),
      LANG: 'C.UTF-8',
      CI_REPLAY_TOOLS_PATH: `${join(venv, 'bin')}:${bin}`,
      PIP_INDEX_URL: 'http://127.0.0.1:9/simple',
      DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${database}`,
      REDIS_URL: 'redis://127.0.0.1:6379',
      DATA_DIR: join(root, 'data'),
      QUEUE_PREFIX: `fresh-${randomBytes(4).toString('hex')}`,
      npm_config_update_notifier: 'false',
      npm_config_cache: join(root, 'npm-cache'),
    };
  }, 120_000);

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    rmSync(root, { recursive: true, force: true });
  });

  /** The message's install line for apt, as printed (root: no sudo). */
  const aptLine = (stderr: string): string => stderr.split('\n').find((line) => /apt-get install -y /.test(line)) ?? '';

  it('npm test stops before the tests with one message naming the missing tools and the command that installs them', { timeout: 180_000 }, async () => {
    // a filter that matches no test file: should the setup wrongly pass, vitest ends at once instead of running the suite
    const outcome = await npm(['test', '--', 'test/e2e/no-such-file-fresh-machine'], env);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('ci-replay setup: the tests need tools this machine does not have:');
    for (const tool of ['flake8', 'black', 'isort', 'mypy', 'pylint', 'pydocstyle']) expect(outcome.stderr).toMatch(new RegExp(`^  - ${tool}: not found on PATH ${venv}/bin`, 'm'));
    expect(outcome.stderr).toMatch(/^ {2}- pytest \(python 3\.11\): .*No module named pytest/m);
    expect(aptLine(outcome.stderr)).toMatch(/apt-get install -y .*\bflake8\b.*\bblack\b/);
    expect(outcome.stderr).toMatch(new RegExp(`^ {2}${venv}/bin/python3? -m pip install pytest$`, 'm'));
    expect(outcome.stderr).toContain('then run `npm test` again.');
    expect(outcome.stdout).toMatch(new RegExp(`setup-python 3\\.11 → ${venv}/bin/python3? \\(3\\.11\\.\\d+\\)`));
    expect(outcome.stdout).not.toMatch(/RUN\s+v\d|No test files found/);
  });

  it('npm run demo stops before creating its database or submitting, with the message and exit code 1', { timeout: 180_000 }, async () => {
    const outcome = await npm(['run', '--silent', 'demo'], env);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('ci-replay setup: the example needs tools this machine does not have:');
    expect(outcome.stderr).toMatch(/^ {2}- flake8: not found on PATH .* — needed by the example's lint job$/m);
    expect(outcome.stderr).toMatch(/^ {2}- black: not found on PATH .* — needed by the example's format job$/m);
    expect(outcome.stderr).toMatch(/^ {2}- pytest \(python 3\.11\): .*No module named pytest — needed by the example's test job/m);
    expect(aptLine(outcome.stderr).trim()).toBe('apt-get install -y flake8 black');
    expect(outcome.stderr).toMatch(new RegExp(`^ {2}${venv}/bin/python3? -m pip install pytest$`, 'm'));
    expect(outcome.stderr).toContain('then run `npm run demo` again.');
    expect(outcome.stdout).not.toMatch(/submitted|Environment Error|instance\s+kind\s+verdict/);
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    const created = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    await admin.end();
    expect(created.rowCount).toBe(0);
  });

  it('as root with apt-get at hand, the setup installs the missing tools itself, says so, and is then green', { timeout: 120_000 }, async () => {
    // apt-get here is a stand-in that "installs" a package by linking this machine's tool into the tools PATH, and
    // logs its calls; the interpreter is the one setup-python picks on this machine, which has pytest
    const tools = join(root, 'apt-tools');
    const python = join(root, 'python-with-pytest');
    mkdirSync(tools);
    mkdirSync(python);
    symlinkSync(realpathSync(pythonTools.setupPython), join(python, 'python3'));
    const fakeApt = join(root, 'fake-apt', 'apt-get');
    mkdirSync(join(root, 'fake-apt'));
    const ln = which('ln', (process.env.PATH ?? '/usr/bin:/bin').split(':')) ?? '/bin/ln';
    const links = (['flake8', 'black'] as const).map((tool) => `${tool}) ${ln} -s ${pythonTools.command(tool)} ${tools}/${tool} ;;`).join(' ');
    writeFileSync(fakeApt, `#!/bin/bash\necho "$*" >> ${root}/apt.log\n[ "$1" = install ] && for p in "$@"; do case "$p" in ${links} esac; done\nexit 0\n`, { mode: 0o755 });
    const outcome = await npm(['run', '--silent', 'setup', '--', '--demo'], { ...env, PATH: `${bin}:${join(root, 'fake-apt')}`, CI_REPLAY_TOOLS_PATH: `${python}:${tools}:${bin}` });
    if (process.getuid?.() !== 0) {
      expect(outcome.code).toBe(1);
      expect(aptLine(outcome.stderr).trim()).toBe('sudo apt-get install -y flake8 black');
      return;
    }
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('installing with apt-get (running as root): flake8 black');
    expect(outcome.stdout).toMatch(new RegExp(`ok\\s+flake8\\s+${tools}/flake8`));
    expect(outcome.stdout).toContain('ci-replay setup: ready');
    expect(readFileSync(join(root, 'apt.log'), 'utf8')).toBe('update -qq\ninstall -y -qq flake8 black\n');
  });

  it("with this machine's tools the setup's check is green and names the interpreters it checked", { timeout: 60_000 }, async () => {
    const outcome = await npm(['run', '--silent', 'setup', '--', '--check'], { ...process.env, CI_REPLAY_TOOLS_PATH: '' });
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('ci-replay setup: ready');
    expect(outcome.stdout).toMatch(new RegExp(`ok\\s+pytest \\(python3\\)\\s+${pythonTools.python3}`));
    expect(outcome.stdout).toMatch(new RegExp(`ok\\s+flake8\\s+${pythonTools.command('flake8')}`));
  });
});
