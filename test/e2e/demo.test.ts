import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';
import { adminUrl } from '../support/test-database.js';

const exec = promisify(execFile);

describe('npm run demo (the README quickstart)', () => {
  const database = `ci_replay_demo_${randomBytes(4).toString('hex')}`;
  let dataDir = '';
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    if (dataDir !== '') await rm(dataDir, { recursive: true, force: true });
  });

  it('creates the database, runs the example through the API and prints the results table', { timeout: 600_000 }, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ci-replay-demo-'));
    const { stdout } = await exec('npm', ['run', '--silent', 'demo'], {
      cwd: projectRoot(),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? dataDir, DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${database}`, DATA_DIR: dataDir, QUEUE_PREFIX: `demo-${randomBytes(4).toString('hex')}` },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 540_000,
    });
    expect(stdout).toMatch(/demo-lint\s+baseline\s+failed\s+lint: Lint with flake8\s+Code Linting/);
    expect(stdout).toMatch(/demo-lint\s+candidate\s+passed/);
    expect(stdout).toMatch(/demo-format\s+candidate\s+passed/);
    expect(stdout).toMatch(/demo-assertion\s+candidate\s+failed\s+test \(3\.11\): Run tests/);
    expect(stdout).toMatch(/demo-dependency\s+baseline\s+failed\s+test \(3\.11\): Run tests\s+Dependency Issues/);
    expect(stdout).toMatch(/demo-dependency\s+candidate\s+passed/);
  });
});
