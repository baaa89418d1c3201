import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noFailedJobs, type Kind } from '../support/campaign-base.js';
import { waitFor } from '../support/wait-for.js';
import { PostgresOutageCampaign } from '../support/postgres-outage-campaign.js';

describe('Postgres stopped and restarted mid-campaign', () => {
  const campaign = new PostgresOutageCampaign();
  beforeAll(() => campaign.start({}), 120_000);
  afterAll(() => campaign.stop());

  it('answers 503 with retry-after while down, loses nothing, fails no job, and ends every submission as without the outage', async () => {
    await campaign.submitMany(12, 'before');
    await campaign.untilRunning();
    await campaign.postgres.stop();
    const downAt = Date.now();

    // While down: reads and writes (with idempotency keys the client will retry) all answer 503 + retry-after.
    const refused: { key: string; kind: Kind }[] = [];
    const someId = [...campaign.expected.keys()][0]!;
    for (let round = 0; Date.now() - downAt < 15_000; round += 1) {
      const kind: Kind = round % 2 === 0 ? 'baseline' : 'candidate';
      const key = `during-${round}`;
      const results = await Promise.all([
        campaign.submit(kind, key),
        campaign.call('read submission', 'GET', `/v1/submissions/${someId}`),
        campaign.call('list submissions', 'GET', `/v1/submissions?runId=${campaign.runId}`),
        campaign.call('read run', 'GET', `/v1/runs/${campaign.runId}`),
        campaign.call('list instances', 'GET', '/v1/instances'),
        campaign.call('create run', 'POST', '/v1/runs', { label: `during-${round}` }),
      ]);
      for (const answer of results) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(503);
        expect(answer.body.error?.code).toBe('database_unavailable');
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      }
      refused.push({ key, kind });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect((await fetch(`${campaign.base}/readyz`)).status).toBe(503);
    await campaign.postgres.start();
    const downFor = Date.now() - downAt;

    // The client retries what was refused, with the same idempotency keys: each becomes exactly one submission.
    for (const { key, kind } of refused) {
      const answer = await waitFor(async () => {
        const attempt = await campaign.submit(kind, key);
        return attempt.status === 503 ? undefined : attempt;
      }, { timeoutMs: 30_000 });
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      campaign.expected.set(answer.body.id!, kind === 'baseline' ? 'failed' : 'passed');
    }
    expect((await campaign.submit(refused[0]!.kind, refused[0]!.key)).status).toBe(200);

    for (const row of await campaign.allFinished()) {
      expect({ id: row.id, state: row.state, verdict: row.verdict }).toEqual({ id: row.id, state: 'completed', verdict: campaign.expected.get(row.id) });
      // One run per submission: nothing replayed twice because the database blinked.
      expect(await campaign.env.deps.repos.ci.runsOf(row.id)).toHaveLength(1);
    }
    expect(await campaign.failedJobs()).toEqual(noFailedJobs);
    campaign.expectNoServerErrorBut503();
    const waited = await campaign.jobsThatWaited();
    expect(waited.length).toBeGreaterThan(0);
    const refusedCount = campaign.answers.filter(({ answer }) => answer.status === 503).length;
    console.info(`postgres down ${Math.round(downFor / 1000)} s: ${refusedCount} requests answered 503 with retry-after; ${waited.length} jobs waited for it; ${campaign.expected.size} submissions all completed as without the outage; 0 failed jobs`);
  }, 420_000);
});
