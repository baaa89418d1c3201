import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/paths.js';
import { adminUrl } from '../support/test-database.js';

/** Runs `npm run demo -- --serve` until it prints the dashboard's sign-in line; returns its output so far and the child. */
function startDemo(env: NodeJS.ProcessEnv): Promise<{ stdout: string; child: ReturnType<typeof spawn>; exited: Promise<string> }> {
  const child = spawn('npm', ['run', '--silent', 'demo', '--', '--serve'], { cwd: projectRoot(), env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // how it ended: an exit code, or the signal npm (not the demo) ends on after Ctrl-C
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(code === null ? String(signal) : String(code))));
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (/sign in with the demo's operator token: \S+\n/.test(stdout)) resolve({ stdout, child, exited });
    });
    void exited.then((code) => reject(new Error(`npm run demo exited ${code} before serving:\n${stdout}\n${stderr}`)));
  });
}

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

  it('creates the database, runs the example through the API, prints the results table and, with --serve, shows the finished campaign in the dashboard', { timeout: 600_000 }, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ci-replay-demo-'));
    const { stdout, child, exited } = await startDemo({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? dataDir, DATABASE_URL: `postgresql://postgres@127.0.0.1:5432/${database}`, DATA_DIR: dataDir, QUEUE_PREFIX: `demo-${randomBytes(4).toString('hex')}`, DEMO_PORT: '0' });
    try {
      // the dashboard: the page, a token login (cookie session), then the demo's run as the page reads it
      const [, address, runId] = /dashboard: (http:\/\/[^/\s]+)\/ui\/#\/runs\/(\S+)/.exec(stdout) ?? [];
      const token = /sign in with the demo's operator token: (\S+)/.exec(stdout)?.[1];
      expect(address).toBeDefined();
      const page = await fetch(`${address}/ui/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('id="app"');
      const login = await fetch(`${address}/ui/session`, { method: 'POST', headers: { origin: address!, 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
      expect(login.status).toBe(201);
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
      const runs = (await (await fetch(`${address}/v1/runs`, { headers: { cookie, origin: address! } })).json()) as { items: Array<Record<string, unknown>> };
      const run = runs.items.find((item) => item.id === runId);
      expect(run?.label).toBe('demo');
      expect(run?.submissions).toMatchObject({ total: 8 });
      const instances = (await (await fetch(`${address}/v1/runs/${runId!}/instances`, { headers: { cookie, origin: address! } })).json()) as { items: Array<Record<string, unknown>> };
      expect(instances.items.length).toBeGreaterThanOrEqual(4);
      expect(instances.items.filter((item) => item.outcome === null || item.outcome === undefined)).toEqual([]);
    } finally {
      // Ctrl-C as a terminal sends it: to the whole process group (npm itself does not pass a lone SIGINT on)
      process.kill(-child.pid!, 'SIGINT');
    }
    // the demo closes its API and worker and exits 0; npm itself ends on the SIGINT it got with its group
    expect(['0', 'SIGINT']).toContain(await exited);
    // and the demo itself (tsx, node) has closed its API and worker and exited: nothing of the group is left
    const groupAlive = (): boolean => {
      try {
        process.kill(-child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let waited = 0; groupAlive() && waited < 60_000; waited += 250) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(groupAlive()).toBe(false);
    expect(stdout).toMatch(/demo-lint\s+baseline\s+failed\s+lint: Lint with flake8\s+Code Linting/);
    expect(stdout).toMatch(/demo-lint\s+candidate\s+passed/);
    expect(stdout).toMatch(/demo-format\s+candidate\s+passed/);
    expect(stdout).toMatch(/demo-assertion\s+candidate\s+failed\s+test \(3\.11\): Run tests/);
    expect(stdout).toMatch(/demo-dependency\s+baseline\s+failed\s+test \(3\.11\): Run tests\s+Dependency Issues/);
    expect(stdout).toMatch(/demo-dependency\s+candidate\s+passed/);
  });
});
