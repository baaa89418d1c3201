import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { importInstances } from '../../src/catalog/import-instances.js';
import { loadConfig, type Config } from '../../src/config.js';
import { migrate, type SubmissionSummary } from '../../src/db/index.js';
import { createDeps, type Deps } from '../../src/deps.js';
import { runGit } from '../../src/git/index.js';
import { migrationsDir } from '../../src/paths.js';
import { QUEUE_NAMES } from '../../src/queue/index.js';
import { createFixtureRepo, makePatch } from './git-fixtures.js';
import { startPrivateRedis, type PrivateRedis } from './private-redis.js';
import { adminUrl } from './test-database.js';
import { waitFor } from './wait-for.js';
import { startWorkerProcess, type WorkerProcess } from './worker-process.js';

export const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

/** The unique argument of the long sleep of the `fault-slow` instance's first attempt: its process is easy to find. */
export const LONG_SLEEP = '47.25';

const QUICK_WORKFLOW = `name: CI
on: push
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Check the status file
        run: sleep 1 && grep -q fixed status.txt
`;

/** The first attempt sleeps long (a run caught in the middle); a re-run attempt does not. */
const SLOW_WORKFLOW = `name: CI
on: push
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Work a while
        run: |
          if [ "$GITHUB_RUN_ATTEMPT" = "1" ]; then sleep ${LONG_SLEEP}; fi
          grep -q fixed status.txt
`;

export type Kind = 'baseline' | 'candidate';

/**
 * A campaign for fault tests with real processes: a database of its own on the shared Postgres server (the worker
 * child uses it as any deployment would, schema `public`), a private Redis, a data directory, two tiny instances
 * (`fault-quick`, `fault-slow`: baselines fail, candidates carrying the fix pass), and the real `ci-replay worker` as
 * child processes that a test may kill. The test process itself only submits and reads (no worker in it).
 */
export class FaultCampaign {
  redis!: PrivateRedis;
  deps!: Deps;
  config!: Config;
  dataDir = '';
  database = '';
  fix = '';
  readonly workers: WorkerProcess[] = [];
  /** Submission id → the verdict a fault-free run gives it. */
  readonly expected = new Map<string, 'failed' | 'passed'>();

  constructor(private readonly settings: Record<string, string> = {}) {}

  get databaseUrl(): string {
    return `postgresql://postgres@127.0.0.1:5432/${this.database}`;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: this.redis.url,
      QUEUE_PREFIX: 'faults',
      DATA_DIR: this.dataDir,
      PUBLIC_URL: 'http://ci-replay.test',
      LEASE_SECONDS: '3',
      RECOVERY_INTERVAL_SECONDS: '1',
      WORKER_CONCURRENCY: '2',
      EXECUTOR_NETWORK: 'none',
      ...this.settings,
      ...extra,
    };
  }

  async start(): Promise<void> {
    this.database = `ci_replay_fault_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${this.database}`);
    await admin.end();
    this.redis = await startPrivateRedis();
    this.dataDir = await mkdtemp(join(tmpdir(), 'ci-replay-faults-'));
    this.config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...this.env() });
    this.deps = createDeps(this.config, { logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) });
    await migrate({ pool: this.deps.db.pool, dir: migrationsDir() });
    const upstream = await createFixtureRepo(join(this.dataDir, 'upstream.git'), [
      { message: 'project', files: { '.github/workflows/ci.yml': QUICK_WORKFLOW, '.github/workflows/slow.yml': SLOW_WORKFLOW, 'status.txt': 'broken\n', 'README.md': 'demo\n' } },
      { message: 'fix', files: { 'status.txt': 'fixed\n' } },
    ]);
    this.fix = await makePatch(upstream.gitDir, upstream.shas[0]!, upstream.shas[1]!);
    const row = (id: string, path: string, workflow: string) => ({
      id, repo_owner: 'example', repo_name: 'status', workflow_path: path, workflow, sha_fail: upstream.shas[0], sha_success: upstream.shas[1],
      diff: this.fix, error_type: ['Test Failure'], upstream_url: upstream.gitDir,
    });
    const jsonl = [row('fault-quick', '.github/workflows/ci.yml', QUICK_WORKFLOW), row('fault-slow', '.github/workflows/slow.yml', SLOW_WORKFLOW)].map((r) => `${JSON.stringify(r)}\n`).join('');
    const summary = await importInstances(Readable.from([jsonl]), this.deps.repos.instances, {});
    if (summary.created !== 2) throw new Error(`fault instances not imported: ${JSON.stringify(summary)}`);
  }

  startWorker(extra: Record<string, string> = {}): WorkerProcess {
    const worker = startWorkerProcess(this.env(extra));
    this.workers.push(worker);
    return worker;
  }

  async submit(kind: Kind, instanceId = 'fault-quick'): Promise<string> {
    const { submission } = await this.deps.submissions.create({ instanceId, kind, ...(kind === 'candidate' ? { patch: this.fix } : {}) });
    this.expected.set(submission.id, kind === 'baseline' ? 'failed' : 'passed');
    return submission.id;
  }

  async rows(ids: string[] = [...this.expected.keys()]): Promise<SubmissionSummary[]> {
    return Promise.all(ids.map(async (id) => (await this.deps.repos.submissions.getSummary(id))!));
  }

  /** Waits until every submission given (default: all) is final. */
  async finished(ids: string[] = [...this.expected.keys()], timeoutMs = 90_000): Promise<SubmissionSummary[]> {
    return waitFor(
      async () => {
        const rows = await this.rows(ids);
        return rows.every((row) => TERMINAL.includes(row.state) && row.verdict !== null) ? rows : undefined;
      },
      { timeoutMs, intervalMs: 250, describe: async () => (await this.rows(ids)).map((row) => `${row.kind}:${row.state}:${row.leaseOwner ?? '-'}`) },
    );
  }

  /** The benchmark branches holding a submission's id in the local bare repository, with the commit each points at. */
  async branches(id: string): Promise<{ ref: string; sha: string }[]> {
    const result = await runGit(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/ci-replay/'], { gitDir: join(this.dataDir, 'bench', 'example--status.git') });
    return result.stdout
      .toString('utf8')
      .split('\n')
      .filter((line) => line.includes(id))
      .map((line) => {
        const [ref = '', sha = ''] = line.split(' ');
        return { ref, sha };
      });
  }

  /** Jobs BullMQ failed permanently, per queue (the faults must never leave one). */
  async failedJobs(): Promise<Record<string, number>> {
    const failed: Record<string, number> = {};
    for (const name of QUEUE_NAMES) failed[name] = (await this.deps.queues.counts(name)).failed ?? 0;
    return failed;
  }

  async destroy(): Promise<void> {
    try {
      await Promise.all(this.workers.map((worker) => worker.kill('SIGKILL')));
      await this.deps?.close();
    } finally {
      await this.redis?.destroy();
      if (this.database !== '') {
        const admin = new pg.Client({ connectionString: adminUrl() });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${this.database} WITH (FORCE)`);
        await admin.end();
      }
      if (this.dataDir !== '') await rm(this.dataDir, { recursive: true, force: true });
    }
  }
}

export const noFailedJobs = Object.fromEntries(QUEUE_NAMES.map((name) => [name, 0]));
