import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pino } from 'pino';
import { importInstances } from '../../src/catalog/import-instances.js';
import { loadConfig } from '../../src/config.js';
import { migrate } from '../../src/db/index.js';
import { createDeps } from '../../src/deps.js';
import { runGit } from '../../src/git/index.js';
import { migrationsDir } from '../../src/paths.js';
import { createFixtureRepo, makePatch } from './git-fixtures.js';
import { CampaignBase, QUICK_WORKFLOW } from './campaign-base.js';
import { startPrivateRedis } from './private-redis.js';
import { startWorkerProcess, type WorkerProcess } from './worker-process.js';

export { noFailedJobs, TERMINAL, type Kind } from './campaign-base.js';

/** The unique argument of the long sleep of the `fault-slow` instance's first attempt: its process is easy to find. */
export const LONG_SLEEP = '47.25';


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


/**
 * A campaign for fault tests with real processes: a database of its own on the shared Postgres server (the worker
 * child uses it as any deployment would, schema `public`), a private Redis, a data directory, two tiny instances
 * (`fault-quick`, `fault-slow`: baselines fail, candidates carrying the fix pass), and the real `ci-replay worker` as
 * child processes that a test may kill. The test process itself only submits and reads (no worker in it).
 */
export class FaultCampaign extends CampaignBase {
  protected readonly defaultInstance = 'fault-quick';
  protected readonly finishTimeoutMs = 180_000;

  constructor(private readonly settings: Record<string, string> = {}) {
    super();
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
    await this.createDatabase('fault');
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

  async destroy(): Promise<void> {
    await this.teardown(async () => {
      await this.deps?.close();
    });
  }
}
