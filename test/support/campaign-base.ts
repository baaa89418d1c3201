import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import type { Config } from '../../src/config.js';
import type { SubmissionSummary } from '../../src/db/index.js';
import type { Deps } from '../../src/deps.js';
import { QUEUE_NAMES } from '../../src/queue/index.js';
import type { PrivateRedis } from './private-redis.js';
import { adminUrl } from './test-database.js';
import { waitFor } from './wait-for.js';
import type { WorkerProcess } from './worker-process.js';

export const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

export type Kind = 'baseline' | 'candidate';

/** No job failed for good, in any queue. */
export const noFailedJobs = Object.fromEntries(QUEUE_NAMES.map((name) => [name, 0]));

/** The campaigns' quick workflow: one job that fails until the status file says fixed (the candidates' patch). */
export const QUICK_WORKFLOW = `name: CI
on: push
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Check the status file
        run: sleep 1 && grep -q fixed status.txt
`;

/**
 * What the fault campaigns (local and GitHub backend) share: a database of their own on the shared Postgres server, a
 * private Redis, a data folder, worker child processes, and the submissions they made with the verdict a fault-free
 * run gives each.
 */
export abstract class CampaignBase {
  redis!: PrivateRedis;
  deps!: Deps;
  config!: Config;
  dataDir = '';
  database = '';
  fix = '';
  readonly workers: WorkerProcess[] = [];
  /** Submission id → the verdict a fault-free run gives it. */
  readonly expected = new Map<string, 'failed' | 'passed'>();

  protected abstract readonly defaultInstance: string;
  protected abstract readonly finishTimeoutMs: number;

  get databaseUrl(): string {
    return `postgresql://postgres@127.0.0.1:5432/${this.database}`;
  }

  protected async createDatabase(prefix: string): Promise<void> {
    this.database = `ci_replay_${prefix}_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${this.database}`);
    } finally {
      await admin.end();
    }
  }

  async submit(kind: Kind, instanceId = this.defaultInstance): Promise<string> {
    const { submission } = await this.deps.submissions.create({ instanceId, kind, ...(kind === 'candidate' ? { patch: this.fix } : {}) });
    this.expected.set(submission.id, kind === 'baseline' ? 'failed' : 'passed');
    return submission.id;
  }

  async rows(ids: string[] = [...this.expected.keys()]): Promise<SubmissionSummary[]> {
    return Promise.all(ids.map(async (id) => (await this.deps.repos.submissions.getSummary(id))!));
  }

  /** Waits until every submission given (default: all) is final. */
  async finished(ids: string[] = [...this.expected.keys()], timeoutMs = this.finishTimeoutMs): Promise<SubmissionSummary[]> {
    return waitFor(
      async () => {
        const rows = await this.rows(ids);
        return rows.every((row) => TERMINAL.includes(row.state) && row.verdict !== null) ? rows : undefined;
      },
      { timeoutMs, intervalMs: 250, describe: async () => (await this.rows(ids)).map((row) => `${row.kind}:${row.state}:${row.leaseOwner ?? '-'}`) },
    );
  }

  /** Jobs BullMQ failed permanently, per queue (the faults must never leave one). */
  async failedJobs(): Promise<Record<string, number>> {
    const failed: Record<string, number> = {};
    for (const name of QUEUE_NAMES) failed[name] = (await this.deps.queues.counts(name)).failed ?? 0;
    return failed;
  }

  /**
   * SIGKILLs every worker still alive. Run after each test, so a worker a failed test left running never takes the
   * next test's submissions (one failure then reads as one, not as a cascade).
   */
  async stopWorkers(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.kill('SIGKILL')));
  }

  /**
   * After a failed test: the workers' warnings and errors, and every line about `ids`, printed compactly (CI keeps
   * only the test output; without them a fault that happened once cannot be told from its symptom).
   */
  printWorkerLogs(ids: string[] = [...this.expected.keys()]): void {
    const lines: string[] = [];
    for (const [index, worker] of this.workers.entries()) {
      for (const record of worker.logs) {
        const about = ids.includes(String(record.submissionId ?? ''));
        if (!about && (record.level ?? 0) < 40) continue;
        const { level, time, msg, submissionId, err, service: _service, pid: _pid, hostname: _hostname, ...rest } = record;
        const error = typeof err === 'object' && err !== null ? String((err as { message?: unknown }).message ?? '') : '';
        lines.push(`worker ${index} ${new Date(Number(time)).toISOString().slice(11, 23)} ${String(level)} ${String(submissionId ?? '-').slice(0, 8)} ${String(msg)} ${JSON.stringify(rest).slice(0, 300)}${error ? ` err=${error.slice(0, 300)}` : ''}`);
      }
    }
    console.info(`worker logs (${lines.length} lines, last 300):\n${lines.slice(-300).join('\n')}`);
  }

  /** Kills the workers, then runs `close` (what the subclass runs in-process) and removes Redis, database and folder. */
  protected async teardown(close: () => Promise<void>): Promise<void> {
    try {
      await this.stopWorkers();
      await close();
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
