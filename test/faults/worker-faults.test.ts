import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FaultStep } from '../../src/config.js';
import { FaultCampaign, LONG_SLEEP, noFailedJobs, type Kind } from '../support/fault-campaign.js';
import { waitFor } from '../support/wait-for.js';

/** Live processes whose command line is exactly `sleep <LONG_SLEEP>` (the slow instance's first attempt). */
function longSleeps(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.charAt(0);
      if (cmdline[0]?.endsWith('sleep') === true && cmdline[1] === LONG_SLEEP && state !== 'Z') pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

const workFolders = (campaign: FaultCampaign): string[] => {
  try {
    return readdirSync(join(campaign.dataDir, 'work'));
  } catch {
    return [];
  }
};

/** Every submission: final with the verdict of a fault-free run, one branch at its head commit, its lease cleared. */
async function expectExactlyOnce(campaign: FaultCampaign, ids: string[]): Promise<void> {
  for (const row of await campaign.finished(ids)) {
    expect({ id: row.id, state: row.state, verdict: row.verdict }).toEqual({ id: row.id, state: 'completed', verdict: campaign.expected.get(row.id) });
    expect(row).toMatchObject({ leaseOwner: null, leaseExpiresAt: null });
    const branches = await campaign.branches(row.id);
    expect(branches).toEqual([{ ref: `refs/heads/${row.branch}`, sha: row.headSha }]);
    const runs = await campaign.deps.repos.ci.runsOf(row.id);
    expect(runs.every((run) => run.status === 'completed')).toBe(true);
    // One result: labels once per type, one archived log per failed job of the attempt the verdict follows.
    const latest = runs.at(-1)!;
    const jobs = await campaign.deps.repos.ci.jobsOfRun(latest.id);
    const failed = jobs.filter((job) => job.conclusion === 'failure');
    expect(failed.every((job) => job.log !== null)).toBe(true);
    const labels = (await campaign.deps.repos.ci.labelsOf(row.id)).filter((label) => jobs.some((job) => job.id === label.jobId));
    expect(labels.map((label) => label.type).sort()).toEqual([...new Set(labels.map((label) => label.type))].sort());
    expect(failed.length > 0).toBe(row.verdict === 'failed');
  }
  expect(await campaign.failedJobs()).toEqual(noFailedJobs);
}

describe('a worker SIGKILLed in each pipeline step, then restarted', () => {
  const campaign = new FaultCampaign();
  beforeAll(() => campaign.start(), 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') campaign.printWorkerLogs();
    await campaign.stopWorkers();
  }, 30_000);
  afterAll(() => campaign.destroy());

  /** Which submissions reach the step: a log is archived only for a failing job (the baseline). */
  const cases: { step: FaultStep; kinds: Kind[]; pauses: number; attempts: number }[] = [
    { step: 'queued', kinds: ['baseline', 'candidate'], pauses: 2, attempts: 1 },
    { step: 'preparing', kinds: ['baseline', 'candidate'], pauses: 2, attempts: 1 },
    { step: 'after-push', kinds: ['baseline', 'candidate'], pauses: 2, attempts: 1 },
    { step: 'running', kinds: ['baseline', 'candidate'], pauses: 2, attempts: 2 },
    { step: 'archiving', kinds: ['baseline'], pauses: 1, attempts: 1 },
    { step: 'finalizing', kinds: ['baseline', 'candidate'], pauses: 2, attempts: 1 },
  ];

  it.each(cases)('killed at $step: each submission completes exactly once, one branch, one result', async ({ step, kinds, pauses, attempts }) => {
    const started = Date.now();
    const doomed = campaign.startWorker({ FAULT_PAUSE_AT: step });
    const ids: string[] = [];
    for (const kind of kinds) ids.push(await campaign.submit(kind));
    const paused = await doomed.waitForLog((record) => record.msg === 'fault pause' && ids.includes(String(record.submissionId)), { count: pauses, timeoutMs: 180_000 });
    expect(paused.every((record) => record.faultPause === step)).toBe(true);
    if (step === 'archiving') {
      // The log is archived by its own job while the prepare job records the end of the run: killed once the run is
      // recorded completed, the next worker must only finish the archive (killed before, it re-runs: the `running` case).
      await waitFor(async () => {
        const runs = await Promise.all(ids.map((id) => campaign.deps.repos.ci.runsOf(id)));
        return runs.every((list) => list.length > 0 && list.every((run) => run.status === 'completed')) ? true : undefined;
      }, { timeoutMs: 60_000 });
    }
    const before = await campaign.rows(ids);
    await doomed.kill('SIGKILL');
    const restarted = campaign.startWorker();
    await expectExactlyOnce(campaign, ids);
    for (const id of ids) {
      const runs = await campaign.deps.repos.ci.runsOf(id);
      expect(runs.map((run) => run.runAttempt)).toEqual(Array.from({ length: attempts }, (_, i) => i + 1));
      if (attempts === 2) {
        // The attempt that died with its worker is recorded as lost; the verdict follows the re-run.
        expect(runs[0]).toMatchObject({ conclusion: 'cancelled', outcome: 'infra_error', outcomeReason: 'runner_lost' });
        expect(runs[1]!.githubRunId).toBe(runs[0]!.githubRunId);
      }
    }
    // The worker held the prepare steps' leases when it died: resumed once. Killed in the run's follow-up jobs it held
    // only the hand-off lease (one lease after the run): on a slow machine that can lapse before the restarted worker
    // redoes the killed job, and the sweep then resumes the submission once more (finalize queued again, idempotent).
    const resumes = (await campaign.rows(ids)).map((row) => row.resumeCount);
    if (['archiving', 'finalizing'].includes(step)) expect(resumes.every((count) => count <= 1), String(resumes)).toBe(true);
    else expect(resumes).toEqual(ids.map(() => 1));
    expect(before.map((row) => row.state).every((state) => state !== 'completed')).toBe(true);
    await restarted.kill('SIGTERM');
    console.info(`killed at ${step}: ${ids.length} submission(s) completed exactly once in ${((Date.now() - started) / 1000).toFixed(1)} s (states when killed: ${before.map((row) => row.state).join(', ')})`);
  }, 300_000);
});

describe('a run outside a sandbox whose worker died (its step processes outlive it)', () => {
  const campaign = new FaultCampaign({ EXECUTOR_SANDBOX: 'off' });
  beforeAll(() => campaign.start(), 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') campaign.printWorkerLogs();
    await campaign.stopWorkers();
  }, 30_000);
  afterAll(() => campaign.destroy());

  it('is re-run as a new attempt after its leftover processes are killed and its work folder removed', async () => {
    const doomed = campaign.startWorker();
    const id = await campaign.submit('candidate', 'fault-slow');
    await waitFor(async () => (longSleeps().length === 1 ? true : undefined), { timeoutMs: 60_000 });
    expect(workFolders(campaign)).toHaveLength(1);
    await doomed.kill('SIGKILL');
    // The step's process group outlived the worker.
    expect(longSleeps()).toHaveLength(1);
    const restarted = campaign.startWorker();
    await expectExactlyOnce(campaign, [id]);
    expect(longSleeps()).toEqual([]);
    expect(workFolders(campaign)).toEqual([]);
    const runs = await campaign.deps.repos.ci.runsOf(id);
    expect(runs.map((run) => [run.runAttempt, run.outcome])).toEqual([[1, 'infra_error'], [2, 'passed']]);
    expect(restarted.logs.some((record) => record.msg === 'abandoned run: leftover step processes killed, work folders removed' && Number(record.killed) >= 1)).toBe(true);
    await restarted.kill('SIGTERM');
  }, 300_000);

  it('cancel of a submission whose worker is dead ends it at once and kills its processes', async () => {
    const doomed = campaign.startWorker();
    const id = await campaign.submit('baseline', 'fault-slow');
    await waitFor(async () => (longSleeps().length === 1 ? true : undefined), { timeoutMs: 60_000 });
    await doomed.kill('SIGKILL');
    // Dead worker: its lease runs out, then nothing would end the submission but a cancel (no worker is running).
    await waitFor(async () => {
      const row = await campaign.deps.repos.submissions.getSummary(id);
      return row !== null && row.leaseExpiresAt !== null && row.leaseExpiresAt.getTime() < Date.now() ? true : undefined;
    }, { timeoutMs: 10_000 });
    const cancelled = await campaign.deps.submissions.cancel(id);
    expect(cancelled).toMatchObject({ state: 'cancelled', verdict: 'invalid', outcome: 'cancelled', reason: 'cancelled' });
    expect(longSleeps()).toEqual([]);
    expect(workFolders(campaign)).toEqual([]);
    const runs = await campaign.deps.repos.ci.runsOf(id);
    expect(runs.map((run) => [run.status, run.conclusion, run.outcome])).toEqual([['completed', 'cancelled', 'cancelled']]);
  }, 300_000);
});

describe('graceful shutdown (SIGTERM)', () => {
  const campaign = new FaultCampaign({ SHUTDOWN_GRACE_MS: '1500' });
  beforeAll(() => campaign.start(), 60_000);
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') campaign.printWorkerLogs();
    await campaign.stopWorkers();
  }, 30_000);
  afterAll(() => campaign.destroy());

  it('lets a job that ends within the grace period finish, then exits 0', async () => {
    const worker = campaign.startWorker({ SHUTDOWN_GRACE_MS: '20000' });
    const id = await campaign.submit('candidate');
    await waitFor(async () => ((await campaign.deps.repos.submissions.getSummary(id))?.state === 'running' ? true : undefined), { timeoutMs: 60_000 });
    expect(await worker.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    const row = (await campaign.deps.repos.submissions.getSummary(id))!;
    // Its run finished before the worker exited; only finalize (a queue job) may be left for the next worker.
    const runs = await campaign.deps.repos.ci.runsOf(id);
    expect(runs.map((run) => [run.runAttempt, run.status])).toEqual([[1, 'completed']]);
    expect(row.leaseOwner).toBeNull();
    const next = campaign.startWorker();
    await expectExactlyOnce(campaign, [id]);
    await next.kill('SIGTERM');
  }, 300_000);

  it('hands a run that outlasts the grace period back (lease released, job back in the queue), exits 0, and another worker re-runs it', async () => {
    const worker = campaign.startWorker();
    const id = await campaign.submit('candidate', 'fault-slow');
    await waitFor(async () => (longSleeps().length === 1 ? true : undefined), { timeoutMs: 60_000 });
    const stoppedAt = Date.now();
    expect(await worker.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    expect(worker.logs.some((record) => record.msg === 'job handed back to the queue')).toBe(true);
    const row = (await campaign.deps.repos.submissions.getSummary(id))!;
    expect(row).toMatchObject({ state: 'running', leaseOwner: null });
    expect(await campaign.deps.queues.inspect('prepare', [`submission-${id}`])).toEqual(['pending']);
    const next = campaign.startWorker();
    await expectExactlyOnce(campaign, [id]);
    const runs = await campaign.deps.repos.ci.runsOf(id);
    expect(runs.map((run) => [run.runAttempt, run.outcome])).toEqual([[1, 'infra_error'], [2, 'passed']]);
    // A hand-back is not a death: no resume counted.
    expect((await campaign.deps.repos.submissions.getSummary(id))?.resumeCount).toBe(0);
    await next.kill('SIGTERM');
  }, 300_000);
});
