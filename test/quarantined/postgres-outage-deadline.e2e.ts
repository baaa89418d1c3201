// Out of the suite for now: on 2026-12-01 this case failed 2 of its last 4 runs (a quiet machine included): no job's
// outage bookkeeping reached the 6 s deadline within 300 s of the stop. See docs/reliability.md.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noFailedJobs } from '../support/campaign-base.js';
import { waitFor } from '../support/wait-for.js';
import { PostgresOutageCampaign } from '../support/postgres-outage-campaign.js';

describe('Postgres away longer than DB_OUTAGE_DEADLINE_MINUTES', () => {
  const campaign = new PostgresOutageCampaign();
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
