import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { noFailedJobs } from '../support/fault-campaign.js';
import { GithubFaultCampaign } from '../support/github-fault-campaign.js';
import { waitFor } from '../support/wait-for.js';

const CONCLUSION = { failed: 'failure', passed: 'success' } as const;

/** One query on the campaign's database. */
async function query<Row extends pg.QueryResultRow>(campaign: GithubFaultCampaign, text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: campaign.databaseUrl });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Deliveries recorded in Postgres, by status (`received` = not processed yet). */
async function deliveryStatuses(campaign: GithubFaultCampaign): Promise<Record<string, number>> {
  const rows = await query<{ status: string; count: string }>(campaign, `SELECT "status", count(*) AS "count" FROM "WebhookDelivery" WHERE "event" IN ('workflow_run', 'workflow_job') GROUP BY "status"`);
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

/** The recorded status of each of these deliveries (by GUID); a GUID not recorded is absent. */
async function statusesOf(campaign: GithubFaultCampaign, guids: string[]): Promise<Map<string, string>> {
  const rows = await query<{ id: string; status: string }>(campaign, `SELECT "id", "status" FROM "WebhookDelivery" WHERE "id" = ANY($1::text[])`, [guids]);
  return new Map(rows.map((row) => [row.id, row.status]));
}

/** Each submission once: its verdict, one run on GitHub and in the database, one check run with the verdict's conclusion. */
async function expectCompletedOnce(campaign: GithubFaultCampaign, ids: string[]): Promise<void> {
  for (const row of await campaign.finished(ids)) {
    const expected = campaign.expected.get(row.id)!;
    expect({ state: row.state, verdict: row.verdict }).toEqual({ state: 'completed', verdict: expected });
    expect(campaign.simRuns(row.headSha)).toHaveLength(1);
    expect((await campaign.deps.repos.ci.runsOf(row.id)).map((run) => [run.runAttempt, run.status])).toEqual([[1, 'completed']]);
    const checks = await waitFor(async () => {
      const found = campaign.checkRuns(row.id);
      return found.length > 0 && found.every((check) => check.status === 'completed') ? found : undefined;
    }, { timeoutMs: 30_000 });
    expect(checks.map((check) => check.conclusion)).toEqual([CONCLUSION[expected]]);
  }
  expect(await campaign.failedJobs(), (await campaign.failedReasons()).join('\n')).toEqual(noFailedJobs);
}

/**
 * Webhook deliveries are recorded in Postgres before they are queued in Redis: deliveries the API accepts while
 * Redis is down, or whose queue jobs a FLUSHALL erased, are processed once Redis is back (the recovery sweep
 * re-enqueues every delivery still `received`). The runs' completion is learnt from those deliveries, so the
 * reconciler is kept out of it (its first look comes after a 10-minute grace period here).
 */
describe('GitHub webhook deliveries across a Redis outage and a FLUSHALL (private Redis, real worker process)', () => {
  const campaign = new GithubFaultCampaign({ NO_RUN_GRACE_SECONDS: '600' });
  beforeAll(() => campaign.start(), 120_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') campaign.printWorkerLogs();
    await campaign.stopWorkers();
    // A test that failed while Redis was down must not leave the next one without it.
    await campaign.redis.ensureRunning();
  }, 30_000);
  afterAll(() => campaign.destroy(), 60_000);

  it('deliveries accepted while Redis is down are answered 2xx, kept in Postgres and processed once Redis is back (restarted empty)', async () => {
    const worker = await campaign.startWorker();
    const ids = [await campaign.submit('baseline', 'gh-slower'), await campaign.submit('candidate', 'gh-slower')];
    const running = await waitFor(async () => {
      const rows = await campaign.rows(ids);
      return rows.every((row) => row.state === 'running') ? rows : undefined;
    }, { timeoutMs: 180_000, describe: async () => (await campaign.rows(ids)).map((row) => row.state) });
    const deliveredBefore = campaign.sim.state.deliveries.length;
    await campaign.redis.kill();
    await waitFor(async () => (running.every((row) => campaign.simRuns(row.headSha).every((run) => run.attempts.at(-1)?.status === 'completed')) ? true : undefined), { timeoutMs: 120_000 });
    await campaign.sim.idle();
    const whileDown = campaign.sim.state.deliveries.slice(deliveredBefore).filter((delivery) => delivery.event === 'workflow_run' || delivery.event === 'workflow_job');
    // Each run's completion (workflow_run + workflow_job completed) came while Redis was down, and none was refused.
    const completions = whileDown.filter((delivery) => delivery.action === 'completed');
    expect(completions.length).toBeGreaterThanOrEqual(4);
    expect(whileDown.filter((delivery) => delivery.statusCode < 200 || delivery.statusCode >= 300)).toEqual([]);
    // Every completion is recorded and waits unprocessed. (The simulator logs a delivery when its answer arrives, which
    // comes after the enqueue: a delivery enqueued just before the kill, and processed, may be logged just after it. So
    // only the completions, sent some 20 s after the kill, are surely deliveries that Redis never saw.)
    const recorded = await statusesOf(campaign, completions.map((delivery) => delivery.guid));
    expect(completions.map((delivery) => recorded.get(delivery.guid))).toEqual(completions.map(() => 'received'));
    expect((await campaign.rows(ids)).map((row) => row.state)).toEqual(['running', 'running']);
    await campaign.redis.start();
    await expectCompletedOnce(campaign, ids);
    await waitFor(async () => ((await deliveryStatuses(campaign)).received === undefined ? true : undefined), { timeoutMs: 60_000, describe: () => deliveryStatuses(campaign) });
    await worker.kill('SIGTERM');
  }, 300_000);

  it('deliveries whose queue jobs a FLUSHALL erased (no worker was taking them) are processed from Postgres', async () => {
    const doomed = await campaign.startWorker();
    const ids = [await campaign.submit('baseline', 'gh-slower'), await campaign.submit('candidate', 'gh-slower')];
    const running = await waitFor(async () => {
      const rows = await campaign.rows(ids);
      return rows.every((row) => row.state === 'running') ? rows : undefined;
    }, { timeoutMs: 180_000, describe: async () => (await campaign.rows(ids)).map((row) => row.state) });
    // No worker while the runs end: their deliveries wait in Redis as events jobs, and then Redis is emptied.
    await doomed.kill('SIGKILL');
    await waitFor(async () => (running.every((row) => campaign.simRuns(row.headSha).every((run) => run.attempts.at(-1)?.status === 'completed')) ? true : undefined), { timeoutMs: 120_000 });
    await campaign.sim.idle();
    expect((await deliveryStatuses(campaign)).received).toBeGreaterThanOrEqual(4);
    // The intake commits deliveries in groups (one events job per batch), so two deliveries arriving together share a job:
    // at least one job waits, not necessarily one per delivery.
    expect((await campaign.deps.queues.counts('events')).waiting ?? 0).toBeGreaterThanOrEqual(1);
    await campaign.redis.flushAll();
    expect((await campaign.deps.queues.counts('events')).waiting ?? 0).toBe(0);
    const worker = await campaign.startWorker();
    await expectCompletedOnce(campaign, ids);
    await waitFor(async () => ((await deliveryStatuses(campaign)).received === undefined ? true : undefined), { timeoutMs: 60_000, describe: () => deliveryStatuses(campaign) });
    await worker.kill('SIGTERM');
  }, 300_000);
});
