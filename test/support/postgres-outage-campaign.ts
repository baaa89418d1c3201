import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { mintToken } from '../../src/auth/tokens.js';
import { buildApp } from '../../src/http/app.js';
import { QUEUE_NAMES } from '../../src/queue/index.js';
import { readOutage } from '../../src/queue/outage.js';
import { createWorkers, type Workers } from '../../src/workers.js';
import { TERMINAL, type Kind } from './campaign-base.js';
import { createFixtureRepo, makePatch } from './git-fixtures.js';
import { startPrivatePostgres, type PrivatePostgres } from './private-postgres.js';
import { createTestEnv, type TestEnv } from './test-env.js';
import { waitFor } from './wait-for.js';

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
export class PostgresOutageCampaign {
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
