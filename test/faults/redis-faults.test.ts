import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultCampaign, noFailedJobs } from '../support/fault-campaign.js';
import { waitFor } from '../support/wait-for.js';
import type { SubmissionSummary } from '../../src/db/index.js';
import type { WorkerProcess } from '../support/worker-process.js';

/**
 * Redis is a cache of Postgres. A campaign of 8 submissions on one worker (2 at a time) is caught with 2 running and
 * 6 queued; then Redis loses everything. Every submission must still end as in a fault-free run (baselines failed,
 * candidates passed), each with one run.
 */
async function campaignOf8(campaign: FaultCampaign, worker: WorkerProcess): Promise<string[]> {
  await worker.waitForLog((record) => record.msg === 'workers started');
  const ids: string[] = [];
  for (let i = 0; i < 8; i += 1) ids.push(await campaign.submit(i % 2 === 0 ? 'baseline' : 'candidate'));
  await waitFor(
    async () => {
      const states = (await campaign.rows(ids)).map((row) => row.state);
      return states.filter((state) => state === 'running').length === 2 && states.filter((state) => state === 'queued').length === 6 ? true : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 100, describe: async () => (await campaign.rows(ids)).map((row) => row.state) },
  );
  return ids;
}

/** Every row's state and verdict against a fault-free run's, compared at once; a mismatch prints each row's reason. */
function expectCompleted(campaign: FaultCampaign, rows: SubmissionSummary[]): void {
  const details = JSON.stringify(rows.map((row) => ({ id: row.id, kind: row.kind, state: row.state, verdict: row.verdict, reason: row.reason, error: row.errorMessage })));
  expect(
    rows.map((row) => ({ id: row.id, state: row.state, verdict: row.verdict })),
    details,
  ).toEqual(rows.map((row) => ({ id: row.id, state: 'completed', verdict: campaign.expected.get(row.id) })));
}

async function expectFaultFreeResults(campaign: FaultCampaign, ids: string[]): Promise<void> {
  const rows = await campaign.finished(ids, 120_000);
  expectCompleted(campaign, rows);
  for (const row of rows) {
    expect((await campaign.deps.repos.ci.runsOf(row.id)).map((run) => run.runAttempt)).toEqual([1]);
    expect(await campaign.branches(row.id)).toHaveLength(1);
  }
  expect(await campaign.failedJobs()).toEqual(noFailedJobs);
}

describe('Redis loses everything mid-campaign (6 queued + 2 running)', () => {
  const campaign = new FaultCampaign();
  beforeAll(() => campaign.start(), 60_000);
  afterAll(() => campaign.destroy());

  it('FLUSHALL while the worker runs: the schedules, the queued jobs and the finalize work are re-created from Postgres', async () => {
    const worker = campaign.startWorker();
    const ids = await campaignOf8(campaign, worker);
    await campaign.redis.flushAll();
    const flushedAt = Date.now();
    await expectFaultFreeResults(campaign, ids);
    expect(worker.logs.some((record) => record.msg === 'schedule missing from Redis: registered again' && record.schedule === 'recover')).toBe(true);
    const requeued = worker.logs.filter((record) => record.msg === 'queued submissions whose prepare job Redis lost were enqueued again').reduce((sum, record) => sum + Number(record.count), 0);
    expect(requeued).toBeGreaterThanOrEqual(1);
    console.info(`FLUSHALL with 6 queued + 2 running: all 8 completed as without it, ${((Date.now() - flushedAt) / 1000).toFixed(1)} s after the flush; ${requeued} prepare jobs re-created`);
    await worker.kill('SIGTERM');
  }, 180_000);

  it('FLUSHALL and the worker killed and restarted: the same', async () => {
    const worker = campaign.startWorker();
    const ids = await campaignOf8(campaign, worker);
    await campaign.redis.flushAll();
    await worker.kill('SIGKILL');
    const restarted = campaign.startWorker();
    // The two runs died with the worker: they are re-run as a second attempt; the other six run once.
    const rows = await campaign.finished(ids, 120_000);
    expectCompleted(campaign, rows);
    for (const row of rows) expect(await campaign.branches(row.id)).toHaveLength(1);
    const attempts = await Promise.all(ids.map(async (id) => (await campaign.deps.repos.ci.runsOf(id)).length));
    expect(attempts.sort()).toEqual([1, 1, 1, 1, 1, 1, 2, 2]);
    expect(await campaign.failedJobs()).toEqual(noFailedJobs);
    await restarted.kill('SIGTERM');
  }, 180_000);
});

describe('Redis killed and restarted on the same port mid-campaign (no persistence)', () => {
  const campaign = new FaultCampaign();
  beforeAll(() => campaign.start(), 60_000);
  afterAll(() => campaign.destroy());

  it('loses nothing: the worker reconnects and every submission ends as without the restart', async () => {
    const worker = campaign.startWorker();
    const ids = await campaignOf8(campaign, worker);
    await campaign.redis.kill();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await campaign.redis.start();
    const restartedAt = Date.now();
    await expectFaultFreeResults(campaign, ids);
    expect(worker.logs.some((record) => record.msg === 'schedule missing from Redis: registered again')).toBe(true);
    console.info(`Redis restarted empty with 6 queued + 2 running: all 8 completed as without it, ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart`);
    expect(await worker.kill('SIGTERM')).toEqual({ code: 0, signal: null });
  }, 180_000);
});
