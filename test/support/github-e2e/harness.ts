import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildDemo, type Demo } from '../../../examples/build-demo.js';
import { mintToken } from '../../../src/auth/tokens.js';
import { createGithubParts, type GithubParts } from '../../../src/backends/github/parts.js';
import { buildApp } from '../../../src/http/app.js';
import { createWorkers, type Workers } from '../../../src/workers.js';
import { createExecutorRunner, startGithubSim, type GithubSim } from '../github-sim/index.js';
import { createTestEnv, type TestEnv } from '../test-env.js';
import { waitFor } from '../wait-for.js';

const run = promisify(execFile);

export const UPSTREAM_OWNER = 'ci-replay-examples';
export const BENCH_OWNER = 'bench';
export const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

export interface GithubHarness {
  sim: GithubSim;
  env: TestEnv;
  parts: GithubParts;
  app: FastifyInstance;
  workers: Workers;
  demo: Demo;
  operator: string;
  submitter: string;
  /** Imports demo instances (optionally renamed onto another upstream repository). */
  importInstances(rows: Record<string, unknown>[]): Promise<void>;
  /** Creates `<UPSTREAM_OWNER>/<name>` in the simulator with the demo's history (Actions off: nothing runs there). */
  seedUpstream(name: string): Promise<void>;
  submit(payload: Record<string, unknown>): Promise<string>;
  submission(id: string): Promise<Record<string, unknown>>;
  finished(id: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * One simulator (runs executed by the project's executor), one service (real Postgres/Redis, webhook intake
 * listening on a port the simulator delivers to) and one in-process worker set, on the GitHub backend.
 */
export async function startGithubHarness(options: { env?: Record<string, string>; tuning?: Parameters<typeof createGithubParts>[1]['tuning'] } = {}): Promise<GithubHarness> {
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const sim = await startGithubSim({ runner: createExecutorRunner({ logger }), forkDelayMs: 100 });
  const upstreamInstallation = sim.createInstallation({ account: UPSTREAM_OWNER });
  sim.createInstallation({ account: BENCH_OWNER });
  const env = await createTestEnv({
    CI_BACKEND: 'github',
    APP_ID: String(sim.appId),
    PRIVATE_KEY: sim.privateKeyPem,
    WEBHOOK_SECRET: sim.webhookSecret,
    BENCH_OWNER,
    BENCH_REPO_MODE: 'fork',
    GITHUB_API_URL: sim.url,
    GITHUB_GIT_URL: sim.url,
    WORKER_CONCURRENCY: '4',
    ...options.env,
  }, { githubTuning: options.tuning ?? { retryAfterBaseMs: 20, writeIntervalMs: 0, forkWaitMs: 1000 } });
  // src/deps.ts builds the GitHub parts for CI_BACKEND=github: backend, webhook route, delivery hooks, reconciler.
  const parts = env.deps.github;
  if (parts === null) throw new Error('CI_BACKEND=github did not build the GitHub parts');
  const app = await buildApp({ ...env.deps, logger, extraRoutes: env.deps.routes });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  sim.setWebhookUrl(`${address}/api/github/webhooks`);
  const operator = (await mintToken(env.deps.repos.tokens, { name: 'op', role: 'operator' })).token;
  const submitter = (await mintToken(env.deps.repos.tokens, { name: 'sub', role: 'submitter' })).token;
  const demo = await buildDemo(join(env.dataDir, 'examples'));
  const workers = await createWorkers(env.deps);
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  const harness: GithubHarness = {
    sim,
    env,
    parts,
    app,
    workers,
    demo,
    operator,
    submitter,
    async importInstances(rows) {
      const body = `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
      const response = await app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...auth(operator), 'content-type': 'application/x-ndjson' }, body });
      if (response.statusCode >= 300 || response.json().failed !== 0) throw new Error(`import failed: ${response.body}`);
    },
    async seedUpstream(name) {
      const repo = await sim.createRepo({ owner: UPSTREAM_OWNER, name });
      repo.actionsEnabled = false;
      const token = sim.installationToken(upstreamInstallation.id);
      const header = `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
      await run('git', ['--git-dir', demo.upstreamPath, '-c', `http.extraHeader=${header}`, 'push', '--quiet', sim.gitUrl(UPSTREAM_OWNER, name), 'refs/heads/*:refs/heads/*']);
      await sim.idle();
    },
    async submit(payload) {
      // A reference replays the ground truth of a non-public instance: operators only. Reads go through the operator, who sees every submission.
      const token = payload.kind === 'reference' || payload.kind === 'revalidation' ? operator : submitter;
      const response = await app.inject({ method: 'POST', url: '/v1/submissions', headers: auth(token), payload });
      if (response.statusCode !== 201) throw new Error(`submit failed: ${response.statusCode} ${response.body}`);
      return response.json().id as string;
    },
    async submission(id) {
      return (await app.inject({ url: `/v1/submissions/${id}`, headers: auth(operator) })).json() as Record<string, unknown>;
    },
    async finished(id, timeoutMs = 90_000) {
      return waitFor(
        async () => {
          const body = await harness.submission(id);
          return TERMINAL.includes(String(body.state)) && (body.state !== 'completed' || body.verdict !== null) ? body : undefined;
        },
        { timeoutMs, describe: () => harness.submission(id) },
      );
    },
    async close() {
      const step = async (name: string, work: () => Promise<unknown>): Promise<void> => {
        const started = Date.now();
        await work();
        if (process.env.TEST_TIMING === '1') console.log(`close ${name}: ${Date.now() - started} ms`);
      };
      await step('workers', () => workers.close());
      await step('sim', () => sim.close());
      await step('app', () => app.close());
      await step('parts', () => parts.close());
      await step('env', () => env.cleanup());
    },
  };
  return harness;
}
