import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, type Demo } from '../../../examples/build-demo.js';
import { projectRoot } from '../../../src/paths.js';
import { adminUrl } from '../../support/test-database.js';

const exec = promisify(execFile);

const CONFTEST = ['diff --git a/conftest.py b/conftest.py', 'new file mode 100644', '--- /dev/null', '+++ b/conftest.py', '@@ -0,0 +1 @@', '+collect_ignore = ["tests"]', ''].join('\n');

describe('ci-replay dataset policy and prepare --dry-run (real processes)', () => {
  const database = `ci_replay_cli_${randomBytes(4).toString('hex')}`;
  let dataDir: string;
  let demo: Demo;
  let env: Record<string, string>;

  const cli = async (...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> => {
    try {
      const { stdout, stderr } = await exec(process.execPath, [join(projectRoot(), 'bin', 'ci-replay.js'), ...args], { env, cwd: dataDir, maxBuffer: 32 * 1024 * 1024 });
      return { stdout, stderr, code: 0 };
    } catch (error) {
      const failure = error as { stdout: string; stderr: string; code: number };
      return { stdout: failure.stdout, stderr: failure.stderr, code: failure.code };
    }
  };

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    dataDir = await mkdtemp(join(tmpdir(), 'ci-replay-cli-'));
    demo = await buildDemo(join(dataDir, 'examples'));
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? dataDir,
      DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${database}`,
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `cli-${randomBytes(4).toString('hex')}`,
      DATA_DIR: join(dataDir, 'data'),
      LOG_LEVEL: 'warn',
    };
    expect((await cli('migrate')).code).toBe(0);
    expect((await cli('import', join(dataDir, 'examples', 'instances.jsonl'))).stdout).toContain('created 4');
  }, 120_000);
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('prepare --dry-run shows the reverted root conftest.py and why, in text and JSON', { timeout: 120_000 }, async () => {
    const patchFile = join(dataDir, 'forged.patch');
    await writeFile(patchFile, `${demo.instances[0]!.patch}${CONFTEST}`);
    const prepared = await cli('prepare', '--instance', 'demo-lint', '--patch', patchFile, '--dry-run');
    expect(prepared.code).toBe(0);
    expect(prepared.stdout).toContain('Reverted (protected paths): conftest.py');
    expect(prepared.stdout).toContain('## Protected paths');
    expect(prepared.stdout).toContain('| `conftest.py` | pytest configuration (conftest.py): the ground truth does not edit this file |');
    expect(prepared.stdout).not.toContain('A\tconftest.py');
    const json = JSON.parse((await cli('prepare', '--instance', 'demo-lint', '--patch', patchFile, '--dry-run', '--json')).stdout);
    expect(json.revertedFiles).toEqual(['conftest.py']);
    expect(json.standardization.protection).toEqual({ policy: 'ground-truth', reverted: [{ path: 'conftest.py', why: 'pytest configuration (conftest.py): the ground truth does not edit this file' }], kept: [] });
  });

  it('dataset policy shows the default, sets protection and paths, and refuses bad values', { timeout: 120_000 }, async () => {
    const shown = await cli('dataset', 'policy', 'ci-repair-bench');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe('dataset ci-repair-bench: protection ground-truth (default; none stored)\nprotected paths: (none)\n');
    const set = await cli('dataset', 'policy', 'ci-repair-bench', '--protection', 'paths', '--paths', 'conftest.py, data/**');
    expect(set.stdout).toBe('dataset ci-repair-bench: protection paths\nprotected paths: conftest.py, data/**\n');
    expect(JSON.parse((await cli('dataset', 'policy', 'ci-repair-bench', '--json')).stdout)).toEqual({ dataset: 'ci-repair-bench', protection: 'paths', protectedPaths: ['conftest.py', 'data/**'], source: 'stored' });
    const cleared = await cli('dataset', 'policy', 'ci-repair-bench', '--paths', '');
    expect(cleared.stdout).toContain('protected paths: (none)');
    expect(cleared.stdout).toContain('protection paths');

    const badProtection = await cli('dataset', 'policy', 'ci-repair-bench', '--protection', 'strict');
    expect(badProtection.code).toBe(2);
    expect(badProtection.stderr).toContain('--protection must be one of ground-truth, paths, off');
    const badPath = await cli('dataset', 'policy', 'ci-repair-bench', '--paths', '../x/**');
    expect(badPath.code).toBe(2);
    expect(badPath.stderr).toContain('error (invalid_protected_path)');
    const unknown = await cli('dataset', 'policy', 'no-such-dataset');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('dataset no-such-dataset does not exist');
  });
});
