import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revalidationTick } from '../../src/revalidation/service.js';
import { FaultCampaign, TERMINAL } from '../support/fault-campaign.js';
import { waitFor } from '../support/wait-for.js';

/**
 * The re-validation schedule against real processes and a real (private) Redis: the cron's tick opens the due
 * re-validation and hands out at most REVALIDATE_MAX_CONCURRENT replays at a time, queued behind interactive
 * submissions; a worker SIGKILLed in the middle and a fresh one started neither duplicate nor lose anything.
 */
describe('re-validation schedule: budget, priority, a killed worker', () => {
  const campaign = new FaultCampaign({
    REVALIDATE_INTERVAL_HOURS: '1',
    REVALIDATE_TICK_SECONDS: '1',
    REVALIDATE_MAX_CONCURRENT: '2',
    REVALIDATE_REPEATS: '2',
  });

  beforeAll(async () => {
    await campaign.start();
    // Only fault-quick is due (fault-slow's first attempt sleeps long by design: checked just now).
    await campaign.deps.repos.instanceHealth.setVerdict('fault-slow', 'unknown');
  }, 120_000);
  afterAll(async () => {
    await campaign.destroy();
  });

  const replays = async () =>
    (
      await campaign.deps.db.pool.query<{ id: string; kind: string; state: string; createdAt: Date; completedAt: Date | null; preparedAt: Date | null }>(
        `SELECT "id", "kind", "state", "createdAt", "completedAt", "preparedAt" FROM "Submission" WHERE "instanceId" = 'fault-quick' AND "kind" IN ('baseline', 'reference') ORDER BY "createdAt"`,
      )
    ).rows;

  it('runs the scheduled re-validation to the end exactly once across a killed worker, interactive work first, never more than 2 replays at once', async () => {
    // The cron's tick (what the maintenance job runs): opens the due instance and creates the first 2 of 4 replays.
    expect(await revalidationTick(campaign.deps, { maxAgeMs: 3_600_000, limit: 10 })).toBe(1);
    expect(await revalidationTick(campaign.deps, { maxAgeMs: 3_600_000, limit: 10 })).toBe(0);
    const [open] = await campaign.deps.repos.revalidations.listRunning(10);
    expect(open).toMatchObject({ instanceId: 'fault-quick', trigger: 'schedule', repeats: 2 });
    expect(open!.submissionIds).toHaveLength(2);
    // An interactive submission arrives after them (a candidate, as a user's run would send).
    const interactive = await campaign.submit('candidate');

    // One worker taking one job at a time: the interactive submission goes first.
    const first = campaign.startWorker({ WORKER_CONCURRENCY: '1' });
    const byId = async () => new Map((await replays()).map((row) => [row.id, row]));
    await waitFor(async () => {
      const rows = [...(await byId()).values()];
      return rows.some((row) => ['published', 'running'].includes(row.state) && row.id !== interactive) ? true : undefined;
    }, { timeoutMs: 120_000, intervalMs: 100, describe: async () => (await replays()).map((row) => `${row.kind}:${row.state}`) });
    const [interactiveRow] = await campaign.rows([interactive]);
    const replayRows = (await replays()).filter((row) => row.preparedAt !== null && row.id !== interactive);
    expect(interactiveRow?.preparedAt).not.toBeNull();
    for (const row of replayRows) expect(interactiveRow!.preparedAt!.getTime()).toBeLessThan(row.preparedAt!.getTime());

    // Killed in the middle of a replay; a new worker takes over.
    await first.kill('SIGKILL');
    campaign.startWorker({ WORKER_CONCURRENCY: '2' });
    const done = await waitFor(async () => {
      const [row] = await campaign.deps.repos.revalidations.listForInstance('fault-quick', 5);
      return row?.status === 'completed' ? row : undefined;
    }, { timeoutMs: 360_000, intervalMs: 250, describe: async () => (await replays()).map((row) => `${row.kind}:${row.state}`) });

    // Exactly one re-validation, four distinct replays, all of them its own, all finished; the verdict is healthy.
    const all = await campaign.deps.repos.revalidations.listForInstance('fault-quick', 5);
    expect(all).toHaveLength(1);
    expect(done).toMatchObject({ result: 'healthy', details: { counts: { baselineFailed: 2, referencePassed: 2 } } });
    expect(new Set(done.submissionIds).size).toBe(4);
    const rows = (await replays()).filter((row) => row.id !== interactive);
    expect(rows.map((row) => row.id).sort()).toEqual([...done.submissionIds].sort());
    expect(rows.every((row) => TERMINAL.includes(row.state))).toBe(true);

    // The budget: replays unfinished at the same time (created → completed), ends before starts at equal instants.
    const events = rows.flatMap((row) => [{ at: row.createdAt.getTime(), delta: 1 }, { at: row.completedAt!.getTime(), delta: -1 }]).sort((a, b) => a.at - b.at || a.delta - b.delta);
    let running = 0;
    let peak = 0;
    for (const event of events) peak = Math.max(peak, (running += event.delta));
    expect(peak).toBe(2);
    expect((await campaign.deps.repos.instanceHealth.get('fault-quick'))).toMatchObject({ health: 'healthy', lifecycle: 'active' });
  }, 600_000);
});
