import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/paths.js';
import { adminUrl } from '../../support/test-database.js';

interface CliResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** `ci-replay health`, `health history`, `quarantine`, `restore` as an operator runs them (real process, own database). */
describe('ci-replay health / quarantine / restore', () => {
  const database = `ci_replay_health_${randomBytes(4).toString('hex')}`;
  let dataDir = '';
  let env: Record<string, string> = {};

  const cli = (args: string[]): Promise<CliResult> =>
    new Promise((resolve, reject) => {
      execFile(process.execPath, [join(projectRoot(), 'bin', 'ci-replay.js'), ...args], { env, cwd: dataDir }, (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : -1;
        if (code === -1) reject(error);
        else resolve({ stdout, stderr, code });
      });
    });

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    dataDir = await mkdtemp(join(tmpdir(), 'ci-replay-health-'));
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? dataDir,
      DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${database}`,
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `health-${randomBytes(4).toString('hex')}`,
      DATA_DIR: join(dataDir, 'data'),
      LOG_LEVEL: 'warn',
    };
    expect((await cli(['migrate'])).code).toBe(0);
    const row = (id: string) => ({
      id,
      repo_owner: 'octo',
      repo_name: 'calc',
      workflow_path: '.github/workflows/ci.yml',
      workflow: 'name: CI\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: exit 1\n',
      sha_fail: 'a'.repeat(40),
      sha_success: 'b'.repeat(40),
      diff: 'diff --git a/x b/x\n',
      error_type: ['Test Failure'],
    });
    await writeFile(join(dataDir, 'rows.jsonl'), `${JSON.stringify(row('calc-1'))}\n${JSON.stringify(row('calc-2'))}\n`);
    expect((await cli(['import', join(dataDir, 'rows.jsonl')])).stdout).toContain('created 2');
  }, 300_000);

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('quarantines and restores by hand with a reason, keeps the history, and the summary says why', async () => {
    const quarantined = await cli(['quarantine', 'calc-1', '--reason', 'upstream repository archived']);
    expect(quarantined).toMatchObject({ code: 0, stdout: 'calc-1: active → quarantined (upstream repository archived)\n' });
    const again = await cli(['quarantine', 'calc-1', '--reason', 'again']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already_quarantined');

    const summary = JSON.parse((await cli(['health', '--json'])).stdout);
    expect(summary).toMatchObject({
      total: 2,
      byLifecycle: { active: 1, suspect: 0, quarantined: 1 },
      byHealth: { unknown: 2 },
      nonActive: [{ instanceId: 'calc-1', lifecycle: 'quarantined', reason: 'upstream repository archived' }],
      oldestCheck: { instanceId: 'calc-1', checkedAt: null, neverChecked: 2 },
    });
    expect(summary.changes.transitions).toEqual([expect.objectContaining({ instanceId: 'calc-1', from: 'active', to: 'quarantined', actor: 'cli' })]);
    const text = (await cli(['health'])).stdout;
    expect(text).toContain('lifecycle: active 1, suspect 0, quarantined 1');
    expect(text).toContain('calc-1: quarantined, unknown — upstream repository archived');

    expect((await cli(['restore', 'calc-1', '--reason', 'mirror restored'])).stdout).toBe('calc-1: quarantined → active (mirror restored)\n');
    const history = JSON.parse((await cli(['health', 'history', 'calc-1', '--json'])).stdout);
    expect(history).toMatchObject({ lifecycle: 'active', transitions: [{ from: 'quarantined', to: 'active', reason: 'mirror restored', actor: 'cli' }, { from: 'active', to: 'quarantined' }] });
  }, 300_000);
});
