import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../src/auth/tokens.js';
import { noFailedJobs } from '../support/fault-campaign.js';
import { GithubFaultCampaign } from '../support/github-fault-campaign.js';
import { waitFor } from '../support/wait-for.js';

const CONCLUSION = { failed: 'failure', passed: 'success' } as const;

/**
 * Each submission: final with the verdict of a fault-free run, one `ci-replay/…` branch at its head commit, one
 * workflow run on GitHub for that commit, one check run (completed, with the verdict's conclusion), one recorded run
 * attempt, labels once, its lease cleared; no failed queue job.
 */
async function expectExactlyOnce(campaign: GithubFaultCampaign, ids: string[]): Promise<void> {
  for (const row of await campaign.finished(ids)) {
    const expected = campaign.expected.get(row.id)!;
    expect({ id: row.id, state: row.state, verdict: row.verdict }, `${row.reason ?? ''}: ${row.errorMessage ?? ''}`).toEqual({ id: row.id, state: 'completed', verdict: expected });
    expect(row).toMatchObject({ leaseOwner: null, leaseExpiresAt: null });
    expect(await campaign.branches(row.id)).toEqual([{ ref: `refs/heads/${row.branch}`, sha: row.headSha }]);
    expect(campaign.simRuns(row.headSha)).toHaveLength(1);
    const checks = await waitFor(async () => {
      const found = campaign.checkRuns(row.id);
      return found.every((check) => check.status === 'completed') ? found : undefined;
    }, { timeoutMs: 30_000, describe: async () => campaign.checkRuns(row.id) });
    expect(checks.map((check) => [check.headSha, check.conclusion])).toEqual([[row.headSha, CONCLUSION[expected]]]);
    expect(String(row.checkRunId)).toBe(String(checks[0]!.id));
    const runs = await campaign.deps.repos.ci.runsOf(row.id);
    expect(runs.map((run) => [run.runAttempt, run.status])).toEqual([[1, 'completed']]);
    const jobs = await campaign.deps.repos.ci.jobsOfRun(runs[0]!.id);
    const failed = jobs.filter((job) => job.conclusion === 'failure');
    expect(failed.length > 0).toBe(expected === 'failed');
    expect(failed.every((job) => job.log !== null)).toBe(true);
    const labels = await campaign.deps.repos.ci.labelsOf(row.id);
    expect(labels.map((label) => label.type).sort()).toEqual([...new Set(labels.map((label) => label.type))].sort());
  }
  expect(await campaign.failedJobs(), (await campaign.failedReasons()).join('\n')).toEqual(noFailedJobs);
}

describe('GitHub backend: a worker SIGKILLed mid-pipeline, then restarted (simulator, real worker processes)', () => {
  const campaign = new GithubFaultCampaign();
  beforeAll(() => campaign.start(), 120_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') campaign.printWorkerLogs();
    await campaign.stopWorkers();
  }, 30_000);
  afterAll(() => campaign.destroy(), 60_000);

  it('killed after the push, before `published` is recorded: re-prepared without a second push, one run, one check run, one result', async () => {
    const doomed = await campaign.startWorker({ FAULT_PAUSE_AT: 'after-push' });
    const ids = [await campaign.submit('baseline'), await campaign.submit('candidate')];
    await doomed.waitForLog((record) => record.msg === 'fault pause' && ids.includes(String(record.submissionId)), { count: 2, timeoutMs: 180_000 });
    const before = await campaign.rows(ids);
    expect(before.map((row) => row.state)).toEqual(['preparing', 'preparing']);
    // The pushes reached GitHub: their runs start (and may finish) while nobody records them.
    for (const row of before) expect((await campaign.branches(row.id)).map((branch) => branch.sha)).toEqual([row.headSha]);
    await doomed.kill('SIGKILL');
    const restarted = await campaign.startWorker();
    await expectExactlyOnce(campaign, ids);
    // Taken over from the dead worker (more than once only when a loaded machine let a 3 s lease lapse).
    expect((await campaign.rows(ids)).every((row) => row.resumeCount >= 1)).toBe(true);
    await restarted.kill('SIGTERM');
  }, 300_000);

  it('killed while the runs execute on GitHub, their completion webhooks lost: the sweep and the reconciler finish each once', async () => {
    const doomed = await campaign.startWorker();
    const ids = [await campaign.submit('baseline', 'gh-slow'), await campaign.submit('candidate', 'gh-slow')];
    const running = await waitFor(async () => {
      const rows = await campaign.rows(ids);
      return rows.every((row) => row.state === 'running') ? rows : undefined;
    }, { timeoutMs: 90_000, describe: async () => (await campaign.rows(ids)).map((row) => row.state) });
    // Nothing tells the service the runs ended but the reconciler (it asks GitHub for the commit's runs).
    campaign.sim.faults.webhooks.drop({ event: 'workflow_run', action: 'completed', times: 2 });
    await doomed.kill('SIGKILL');
    await waitFor(async () => (running.every((row) => campaign.simRuns(row.headSha).every((run) => run.attempts.at(-1)?.status === 'completed')) ? true : undefined), {
      timeoutMs: 60_000,
    });
    expect((await campaign.rows(ids)).map((row) => row.state)).toEqual(['running', 'running']);
    const restarted = await campaign.startWorker();
    await expectExactlyOnce(campaign, ids);
    await restarted.kill('SIGTERM');
    campaign.sim.faults.clear();
  }, 300_000);

  it('killed while finalizing: the verdict and the check run are written once by the next worker', async () => {
    const doomed = await campaign.startWorker({ FAULT_PAUSE_AT: 'finalizing' });
    const ids = [await campaign.submit('baseline'), await campaign.submit('candidate')];
    await doomed.waitForLog((record) => record.msg === 'fault pause' && ids.includes(String(record.submissionId)), { count: 2, timeoutMs: 180_000 });
    expect(ids.every((id) => campaign.checkRuns(id).every((check) => check.status !== 'completed'))).toBe(true);
    await doomed.kill('SIGKILL');
    const restarted = await campaign.startWorker();
    await expectExactlyOnce(campaign, ids);
    await restarted.kill('SIGTERM');
  }, 300_000);

  /** Cancels through the REST API as an operator, as a client would. */
  const cancel = async (id: string) => {
    const { token } = await mintToken(campaign.deps.repos.tokens, { name: 'op', role: 'operator' });
    return campaign.app.inject({ method: 'POST', url: `/v1/submissions/${id}/cancel`, headers: { authorization: `Bearer ${token}` } });
  };

  /** Cancelled for good: its workflow run cancelled on GitHub, its one check run completed `cancelled`, nothing after. */
  async function expectCancelledOnGithub(id: string): Promise<void> {
    const row = (await campaign.rows([id]))[0]!;
    expect(row).toMatchObject({ state: 'cancelled', verdict: 'invalid', reason: 'cancelled', leaseExpiresAt: null });
    const runs = campaign.simRuns(row.headSha);
    expect(runs).toHaveLength(1);
    await waitFor(async () => (runs[0]!.attempts.at(-1)?.status === 'completed' ? true : undefined), { timeoutMs: 30_000 });
    expect(runs[0]!.attempts.at(-1)?.conclusion).toBe('cancelled');
    // Its one check run is closed (a takeover never creates a second one: the publish is fenced by the lease).
    const checks = campaign.checkRuns(id);
    expect(checks).toHaveLength(1);
    expect(checks.map((check) => [check.status, check.conclusion, check.headSha])).toEqual(checks.map(() => ['completed', 'cancelled', row.headSha]));
    if (row.checkRunId !== null) expect(checks.map((check) => String(check.id))).toContain(String(row.checkRunId));
    // The cancelled run's own webhooks (and its finalize) change nothing.
    await campaign.sim.idle();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await campaign.rows([id]))[0]).toMatchObject({ state: 'cancelled', verdict: 'invalid' });
    expect(campaign.checkRuns(id).every((check) => check.conclusion === 'cancelled')).toBe(true);
  }

  it('cancel of a running GitHub submission cancels its workflow run and completes its check run as cancelled', async () => {
    const worker = await campaign.startWorker();
    const id = await campaign.submit('candidate', 'gh-slow');
    const row = await waitFor(async () => {
      const found = (await campaign.rows([id]))[0]!;
      return found.state === 'running' ? found : undefined;
    }, { timeoutMs: 90_000, describe: async () => (await campaign.rows([id]))[0]!.state });
    expect(campaign.simRuns(row.headSha).map((run) => run.attempts.at(-1)?.status)).toEqual(['in_progress']);
    const response = await cancel(id);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ id, state: 'cancelled' });
    await expectCancelledOnGithub(id);
    expect(await campaign.failedJobs(), (await campaign.failedReasons()).join('\n')).toEqual(noFailedJobs);
    await worker.kill('SIGTERM');
  }, 300_000);

  it('cancel while the commit is pushed but `published` not yet recorded stops the run the push started', async () => {
    const doomed = await campaign.startWorker({ FAULT_PAUSE_AT: 'after-push' });
    const id = await campaign.submit('baseline', 'gh-slow');
    await doomed.waitForLog((record) => record.msg === 'fault pause' && record.submissionId === id, { timeoutMs: 180_000 });
    expect((await cancel(id)).statusCode).toBe(202);
    await expectCancelledOnGithub(id);
    await doomed.kill('SIGKILL');
  }, 300_000);
});
