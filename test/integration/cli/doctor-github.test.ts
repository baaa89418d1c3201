import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo } from '../../../examples/build-demo.js';
import { DEFAULT_PERMISSIONS, startGithubSim, type GithubSim } from '../../support/github-sim/index.js';
import { waitFor } from '../../support/wait-for.js';
import { createCliSandbox, type CliResult, type CliSandbox } from '../../support/cli-process.js';
import { serviceEntry } from '../../support/service-entry.js';

interface Check {
  name: string;
  status: string;
  detail: string;
  fix?: string;
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });

/** `ci-replay doctor` with CI_BACKEND=github against the GitHub simulator and a real `ci-replay serve` on loopback. */
describe('ci-replay doctor for the GitHub backend (simulator, real serve and doctor processes)', () => {
  let sandbox: CliSandbox;
  let dataDir: string;
  let sim: GithubSim;
  let env: Record<string, string>;
  let server: ChildProcess | undefined;

  const cli = (args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> => sandbox.cli(args, { extraEnv, maxBuffer: 8 * 1024 * 1024 });
  const doctor = async (extraEnv: Record<string, string> = {}): Promise<{ code: number; checks: Record<string, Check>; text: string }> => {
    const result = await cli(['doctor', '--json'], extraEnv);
    const parsed = JSON.parse(result.stdout) as { checks: Check[] };
    return { code: result.code, checks: Object.fromEntries(parsed.checks.map((check) => [check.name, check])), text: result.stdout };
  };

  beforeAll(async () => {
    sim = await startGithubSim();
    sim.createInstallation({ account: 'bench' });
    const { workflows: _dropped, ...withoutWorkflows } = DEFAULT_PERMISSIONS;
    sim.createInstallation({ account: 'limited', permissions: withoutWorkflows });
    sandbox = await createCliSandbox({ prefix: 'doctor' });
    ({ dir: dataDir, env } = sandbox);
    await buildDemo(join(dataDir, 'examples'));
    const keyPath = join(dataDir, 'app.pem');
    await writeFile(keyPath, sim.privateKeyPem);
    const port = await freePort();
    Object.assign(env, {
      CI_BACKEND: 'github',
      APP_ID: String(sim.appId),
      PRIVATE_KEY_PATH: keyPath,
      WEBHOOK_SECRET: sim.webhookSecret,
      BENCH_OWNER: 'bench',
      GITHUB_API_URL: sim.url,
      GITHUB_GIT_URL: sim.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
    expect((await cli(['migrate'])).code).toBe(0);
    expect((await cli(['import', join(dataDir, 'examples', 'instances.jsonl')])).stdout).toContain('created 4');
    server = spawn(process.execPath, [...serviceEntry(), 'serve'], { env, cwd: dataDir, stdio: 'ignore' });
    await waitFor(async () => ((await fetch(`${env.PUBLIC_URL}/healthz`).catch(() => null))?.ok === true ? true : undefined), { timeoutMs: 300_000, intervalMs: 500 });
  }, 600_000);

  afterAll(async () => {
    if (server !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await sim?.close();
    await sandbox?.destroy();
  });

  it('says what is wrong and how to fix it, then passes once the App, webhook and repositories are right', { timeout: 900_000 }, async () => {
    const broken = await doctor({ WEBHOOK_SECRET: 'not-the-servers-secret' });
    expect(broken.code).toBe(1);
    expect(broken.checks['GitHub App credentials']).toMatchObject({ status: 'ok', detail: `App ${sim.appSlug} (id ${sim.appId})` });
    expect(broken.checks['App installation']?.status).toBe('ok');
    expect(broken.checks['webhook URL and secret']).toMatchObject({ status: 'fail', detail: `${env.PUBLIC_URL}/api/github/webhooks refused the signed ping (401): the service there has another webhook secret` });
    expect(broken.checks['webhook URL and secret']?.fix).toContain('WEBHOOK_SECRET');
    expect(broken.checks['benchmark repositories']).toMatchObject({ status: 'fail', detail: '1 of 1 missing: bench/ci-replay-examples--calc', fix: expect.stringContaining('ci-replay repos sync --all') });

    const repo = await sim.createRepo({ owner: 'bench', name: 'ci-replay-examples--calc' });
    repo.actionsEnabled = true;
    const healthy = await doctor();
    expect(healthy.code).toBe(0);
    expect(healthy.checks['webhook URL and secret']).toMatchObject({ status: 'ok', detail: `${env.PUBLIC_URL}/api/github/webhooks accepted a signed ping (202)` });
    expect(healthy.checks['benchmark repositories']).toMatchObject({ status: 'ok', detail: '1 of 1 present with Actions enabled' });
    expect(Object.values(healthy.checks).filter((check) => check.status === 'fail' && ['GitHub App credentials', 'App installation', 'webhook URL and secret', 'benchmark repositories'].includes(check.name))).toEqual([]);

    const limited = await doctor({ BENCH_OWNER: 'limited' });
    expect(limited.code).toBe(1);
    expect(limited.checks['App installation']).toMatchObject({ status: 'fail', detail: expect.stringContaining('missing permissions: workflows: write (has none)') });
    expect(limited.checks['App installation']?.fix).toContain('Permissions & events');

    const strangers = await doctor({ BENCH_OWNER: 'nobody', APP_ID: String(sim.appId + 1) });
    expect(strangers.code).toBe(1);
    expect(strangers.checks['GitHub App credentials']).toMatchObject({ status: 'fail', fix: expect.stringContaining('APP_ID') });
    expect(strangers.checks['App installation']?.status).toBe('skip');
  });
});
