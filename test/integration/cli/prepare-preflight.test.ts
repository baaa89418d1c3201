import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo } from '../../../examples/build-demo.js';
import { projectRoot } from '../../../src/paths.js';
import { adminUrl } from '../../support/test-database.js';

const exec = promisify(execFile);

/** The demo's test job in a Postgres job container with a Postgres service, as numpy/actions example-services do. */
const CONTAINER_JOB = ['  test:', '    runs-on: ubuntu-latest', '    container: python:3.12-bookworm', '    services:', '      postgres:', '        image: postgres:16', ''].join('\n');

describe('ci-replay prepare --dry-run shows the preflight blockers (real process)', () => {
  const database = `ci_replay_cli_${randomBytes(4).toString('hex')}`;
  let dataDir: string;
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
    const demo = await buildDemo(join(dataDir, 'examples'));
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? dataDir,
      DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${database}`,
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `cli-${randomBytes(4).toString('hex')}`,
      DATA_DIR: join(dataDir, 'data'),
      // the blockers of a host-mode worker: in container mode (docs/local-containers.md) a `container:` job runs
      LOCAL_RUNTIME: 'host',
      LOG_LEVEL: 'warn',
    };
    const lint = demo.instances.find((instance) => instance.id === 'demo-lint')!;
    const blocked = { ...lint.row, id: 'demo-lint-container', workflow: String(lint.row.workflow).replace('  test:\n    runs-on: ubuntu-latest\n', CONTAINER_JOB) };
    await writeFile(join(dataDir, 'instances.jsonl'), `${JSON.stringify(lint.row)}\n${JSON.stringify(blocked)}\n`);
    expect((await cli('migrate')).code).toBe(0);
    expect((await cli('import', join(dataDir, 'instances.jsonl'))).stdout).toContain('created 2');
  }, 120_000);
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('lists the blockers in the report and in --json, exits 1, and queues nothing', async () => {
    const text = await cli('prepare', '--instance', 'demo-lint-container', '--baseline', '--dry-run');
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/commit [0-9a-f]{40} \(preview; not pushed\)/);
    expect(text.stdout).toContain('## Preflight (local backend)');
    expect(text.stdout).toContain('| `job_container` | `test` |');
    expect(text.stdout).toContain('| `service_container` | `test` |');
    expect(text.stdout).toContain('not replayable on the local backend: 2 blocker(s)');
    expect(text.stdout).not.toContain('queued as submission');

    const json = await cli('prepare', '--instance', 'demo-lint-container', '--baseline', '--dry-run', '--json');
    const parsed = JSON.parse(json.stdout) as { preflight: { backend: string; blockers: { code: string; job: string; evidence: string }[] }; standardization: { preflight: unknown }; submissionId: null };
    expect(parsed.preflight.backend).toBe('local');
    expect(parsed.preflight.blockers.map((blocker) => [blocker.code, blocker.job, blocker.evidence])).toEqual([
      ['service_container', 'test', 'postgres:16'],
      ['job_container', 'test', 'python:3.12-bookworm'],
    ]);
    expect(parsed.standardization.preflight).toEqual(parsed.preflight);
    expect(parsed.submissionId).toBeNull();

    const clean = await cli('prepare', '--instance', 'demo-lint', '--baseline', '--dry-run');
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain('Nothing in the workflow is beyond what this backend can run.');
  }, 120_000);
});
