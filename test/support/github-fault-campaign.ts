import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { importInstances } from '../../src/catalog/import-instances.js';
import { loadConfig } from '../../src/config.js';
import { migrate } from '../../src/db/index.js';
import { createDeps } from '../../src/deps.js';
import { buildApp } from '../../src/http/app.js';
import { migrationsDir } from '../../src/paths.js';
import { QUEUE_NAMES } from '../../src/queue/index.js';
import { CampaignBase, QUICK_WORKFLOW } from './campaign-base.js';
import { createFixtureRepo, makePatch } from './git-fixtures.js';
import { createExecutorRunner, startGithubSim, type GithubSim } from './github-sim/index.js';
import type { SimCheckRun, SimRun } from './github-sim/types.js';
import { startPrivateRedis } from './private-redis.js';
import { startWorkerProcess, type WorkerProcess } from './worker-process.js';

const run = promisify(execFile);

export const GH_UPSTREAM_OWNER = 'fault-upstream';
export const GH_BENCH_OWNER = 'fault-bench';
/** The benchmark repository the fault instances publish to (fork of `<upstream owner>/status`). */
export const GH_BENCH_REPO = `${GH_BENCH_OWNER}/${GH_UPSTREAM_OWNER}--status`;


/** Long enough for a test to act while it runs (kill a worker, cancel it). */
const SLOW_WORKFLOW = `name: CI
on: push
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Work a while
        run: sleep 6 && grep -q fixed status.txt
`;

/** Longer still: both runs of a test are surely executing at once, even when a loaded machine staggers their start. */
const SLOWER_WORKFLOW = SLOW_WORKFLOW.replace('sleep 6', 'sleep 20');

/**
 * A fault campaign on the GitHub backend with real processes: the project's GitHub simulator (REST, git, Actions
 * runs executed by the local executor, signed webhooks) and the service's API (webhook intake) run in the test
 * process; the real `ci-replay worker` runs as child processes that a test may kill. A database of its own on the
 * shared Postgres and a private Redis, as in FaultCampaign. Instances `gh-quick`, `gh-slow` (6 s) and `gh-slower`
 * (20 s) (baselines fail, candidates carrying the fix pass) live in the simulator as `<GH_UPSTREAM_OWNER>/status`.
 */
export class GithubFaultCampaign extends CampaignBase {
  sim!: GithubSim;
  app!: FastifyInstance;
  protected readonly defaultInstance = 'gh-quick';
  protected readonly finishTimeoutMs = 180_000;

  constructor(private readonly settings: Record<string, string> = {}) {
    super();
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: this.redis.url,
      QUEUE_PREFIX: 'ghfaults',
      DATA_DIR: this.dataDir,
      PUBLIC_URL: 'http://ci-replay.test',
      CI_BACKEND: 'github',
      APP_ID: String(this.sim.appId),
      PRIVATE_KEY: this.sim.privateKeyPem,
      WEBHOOK_SECRET: this.sim.webhookSecret,
      BENCH_OWNER: GH_BENCH_OWNER,
      BENCH_REPO_MODE: 'fork',
      GITHUB_API_URL: this.sim.url,
      GITHUB_GIT_URL: this.sim.url,
      // 3 s, as in the local campaign: a lease that lapses mid-publish no longer lets a takeover publish again (issue 13).
      LEASE_SECONDS: '3',
      RECOVERY_INTERVAL_SECONDS: '1',
      // The reconciler's first look at a published submission; short so a run whose webhooks a dead worker never
      // processed is fetched soon.
      NO_RUN_GRACE_SECONDS: '5',
      // A run still in progress when the reconciler fetched it is fetched again 5 s later (5 minutes by default), so a run
      // whose webhooks a dead worker never processed is finished within the test's time whatever the machine's load.
      RECONCILE_TURN_SECONDS: '5',
      WORKER_CONCURRENCY: '2',
      EXECUTOR_NETWORK: 'none',
      ...this.settings,
      ...extra,
    };
  }

  async start(): Promise<void> {
    this.dataDir = await mkdtemp(join(tmpdir(), 'ci-replay-ghfaults-'));
    await this.createDatabase('ghfault');
    this.redis = await startPrivateRedis();
    const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
    this.sim = await startGithubSim({ runner: createExecutorRunner({ logger }), forkDelayMs: 100 });
    const upstreamInstallation = this.sim.createInstallation({ account: GH_UPSTREAM_OWNER });
    this.sim.createInstallation({ account: GH_BENCH_OWNER });
    this.config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...this.env() });
    this.deps = createDeps(this.config, { logger, githubTuning: { retryAfterBaseMs: 20, writeIntervalMs: 0, forkWaitMs: 1000 } });
    await migrate({ pool: this.deps.db.pool, dir: migrationsDir() });
    this.app = await buildApp({ ...this.deps, logger, extraRoutes: this.deps.routes });
    const address = await this.app.listen({ port: 0, host: '127.0.0.1' });
    this.sim.setWebhookUrl(`${address}/api/github/webhooks`);

    const upstream = await createFixtureRepo(join(this.dataDir, 'upstream.git'), [
      { message: 'project', files: { '.github/workflows/ci.yml': QUICK_WORKFLOW, '.github/workflows/slow.yml': SLOW_WORKFLOW, '.github/workflows/slower.yml': SLOWER_WORKFLOW, 'status.txt': 'broken\n', 'README.md': 'demo\n' } },
      { message: 'fix', files: { 'status.txt': 'fixed\n' } },
    ]);
    this.fix = await makePatch(upstream.gitDir, upstream.shas[0]!, upstream.shas[1]!);
    const repo = await this.sim.createRepo({ owner: GH_UPSTREAM_OWNER, name: 'status' });
    repo.actionsEnabled = false;
    const token = this.sim.installationToken(upstreamInstallation.id);
    const header = `Authorization: Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`;
    await run('git', ['--git-dir', upstream.gitDir, '-c', `http.extraHeader=${header}`, 'push', '--quiet', this.sim.gitUrl(GH_UPSTREAM_OWNER, 'status'), 'refs/heads/*:refs/heads/*']);
    await this.sim.idle();
    const row = (id: string, path: string, workflow: string) => ({
      id, repo_owner: GH_UPSTREAM_OWNER, repo_name: 'status', workflow_path: path, workflow, sha_fail: upstream.shas[0], sha_success: upstream.shas[1],
      diff: this.fix, error_type: ['Test Failure'], upstream_url: upstream.gitDir,
    });
    const jsonl = [row('gh-quick', '.github/workflows/ci.yml', QUICK_WORKFLOW), row('gh-slow', '.github/workflows/slow.yml', SLOW_WORKFLOW), row('gh-slower', '.github/workflows/slower.yml', SLOWER_WORKFLOW)].map((r) => `${JSON.stringify(r)}\n`).join('');
    const summary = await importInstances(Readable.from([jsonl]), this.deps.repos.instances, {});
    if (summary.created !== 3) throw new Error(`fault instances not imported: ${JSON.stringify(summary)}`);
  }

  /** Starts a worker and waits until it takes jobs. */
  async startWorker(extra: Record<string, string> = {}): Promise<WorkerProcess> {
    const worker = startWorkerProcess(this.env(extra));
    this.workers.push(worker);
    await worker.waitForLog((record) => record.msg === 'workers started', { timeoutMs: 90_000 });
    return worker;
  }

  /** The simulator's `ci-replay/…` branches holding a submission's id, with the commit each points at. */
  async branches(id: string): Promise<{ ref: string; sha: string }[]> {
    const repo = this.sim.state.repos.get(GH_BENCH_REPO.toLowerCase());
    if (repo === undefined) return [];
    const { stdout } = await run('git', ['--git-dir', repo.gitDir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/ci-replay/']);
    return stdout
      .split('\n')
      .filter((line) => line.includes(id))
      .map((line) => {
        const [ref = '', sha = ''] = line.split(' ');
        return { ref, sha };
      });
  }

  /** The service's check runs for a submission (external_id = its id). */
  checkRuns(id: string): SimCheckRun[] {
    return [...this.sim.state.checkRuns.values()].filter((check) => check.externalId === id && check.owner === 'app');
  }

  /** The simulator's workflow runs of a commit. */
  simRuns(headSha: string | null): SimRun[] {
    return [...this.sim.state.runs.values()].filter((simRun) => simRun.headSha === headSha);
  }

  /** Why BullMQ failed each failed job, per queue (read from Redis: `<prefix>:<queue>:failed` and the job hashes). */
  async failedReasons(): Promise<string[]> {
    const redis = new Redis(this.redis.url);
    try {
      const reasons: string[] = [];
      for (const name of QUEUE_NAMES) {
        for (const id of await redis.zrange(`ghfaults:${name}:failed`, '0', '-1')) reasons.push(`${name} ${id}: ${(await redis.hget(`ghfaults:${name}:${id}`, 'failedReason')) ?? '?'}`);
      }
      return reasons;
    } finally {
      redis.disconnect();
    }
  }

  async destroy(): Promise<void> {
    await this.teardown(async () => {
      await this.app?.close();
      // Let runs still executing in the simulator end before it removes their folders.
      if (this.sim !== undefined) await Promise.race([this.sim.idle(), new Promise((resolve) => setTimeout(resolve, 20_000))]);
      await this.sim?.close().catch(() => undefined);
      await this.deps?.close();
    });
  }
}
