import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGithubHarness, UPSTREAM_OWNER, type GithubHarness } from '../support/github-e2e/harness.js';
import { waitFor } from '../support/wait-for.js';

/**
 * The account pool wired into the pipeline (docs/account-pool.md): two benchmark accounts with a limit of 3
 * concurrent jobs each (the demo workflow starts 3 jobs), a handful of submissions on two upstreams. The prepare step
 * admits each submission through the scheduler; those without room wait (queued, with a queue position) and start
 * when a job's webhook gives a slot back.
 */
describe('the account pool on the GitHub backend (simulator)', () => {
  let h: GithubHarness;
  const ACCOUNTS = ['pool-a', 'pool-b'];
  const LIMIT = 3;

  beforeAll(async () => {
    h = await startGithubHarness();
    for (const account of ACCOUNTS) {
      h.sim.createInstallation({ account });
      // pool-a is backed by self-hosted runners (an actions-runner-controller scale set named arc-linux).
      await h.env.deps.repos.benchAccounts.upsert({ owner: account, concurrentJobs: LIMIT, runnerLabels: account === 'pool-a' ? ['arc-linux'] : [] });
    }
    await h.seedUpstream('calc');
    await h.seedUpstream('calc2');
    const demo = (id: string) => h.demo.instances.find((instance) => instance.id === id)!.row;
    await h.importInstances([
      ...h.demo.instances.filter((instance) => ['demo-lint', 'demo-format'].includes(instance.id)).map((instance) => instance.row),
      { ...demo('demo-lint'), id: 'calc2-lint', repo_name: 'calc2' },
      { ...demo('demo-format'), id: 'calc2-format', repo_name: 'calc2' },
    ]);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const ownerOfRun = (runId: number): string | undefined => {
    const run = h.sim.state.runs.get(runId);
    return run === undefined ? undefined : [...h.sim.state.repos.values()].find((repo) => repo.id === run.repoId)?.owner.login;
  };
  /**
   * Jobs queued or running at the simulator, per benchmark account. `firstAttempts`: leave out jobs of re-run
   * attempts started on GitHub (queued there by the click itself, before the service can cancel them).
   */
  const activeJobs = (options: { firstAttempts?: boolean } = {}): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const job of h.sim.state.jobs.values()) {
      if (job.status === 'completed' || (options.firstAttempts === true && job.runAttempt > 1)) continue;
      const owner = ownerOfRun(job.runId);
      if (owner !== undefined) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    return counts;
  };

  it('never exceeds an account limit, puts each repository on its assigned account, and finishes every submission once', async () => {
    const peak = new Map<string, number>();
    let schedulerPeak = 0;
    let sawQueuePosition = false;
    const sampler = setInterval(() => {
      for (const [owner, jobs] of activeJobs()) peak.set(owner, Math.max(peak.get(owner) ?? 0, jobs));
    }, 20);
    const ids: string[] = [];
    try {
      for (const instanceId of ['demo-lint', 'calc2-lint', 'demo-format', 'calc2-format', 'calc2-lint']) {
        ids.push(await h.submit({ instanceId, kind: 'baseline' }));
      }
      await waitFor(
        async () => {
          const pool = (await h.app.inject({ url: '/v1/pool', headers: { authorization: `Bearer ${h.operator}` } })).json() as { accounts: { owner: string; jobsRunning: number; concurrentJobs: number }[] };
          for (const account of pool.accounts) schedulerPeak = Math.max(schedulerPeak, account.jobsRunning - account.concurrentJobs);
          const bodies = await Promise.all(ids.map((id) => h.submission(id)));
          if (bodies.some((body) => typeof body.queuePosition === 'number' && typeof body.expectedStart === 'string')) sawQueuePosition = true;
          return bodies.every((body) => body.state === 'completed' && body.verdict !== null) ? bodies : undefined;
        },
        // 5 submissions × 3 jobs through 2 accounts of 3 slots: 35-50 s here; a liveness bound, wide for a loaded machine.
        { timeoutMs: 240_000, intervalMs: 100, describe: () => Promise.all(ids.map((id) => h.submission(id))) },
      );
    } finally {
      clearInterval(sampler);
    }
    // The limit: at most LIMIT jobs queued or running at GitHub per account, and the scheduler never held more.
    expect([...peak.keys()].sort()).toEqual(ACCOUNTS);
    for (const account of ACCOUNTS) expect(peak.get(account)).toBeLessThanOrEqual(LIMIT);
    expect(schedulerPeak).toBeLessThanOrEqual(0);
    expect(sawQueuePosition).toBe(true);

    // Each upstream on its assigned account, and its benchmark repository there (not BENCH_OWNER).
    const accountOf = new Map<string, string>();
    for (const name of ['calc', 'calc2']) {
      const assignment = await h.env.deps.repos.benchAccounts.findAssignment(UPSTREAM_OWNER, name);
      expect(assignment).not.toBeNull();
      accountOf.set(name, assignment!.account);
      expect(h.sim.state.repos.get(`${assignment!.account}/${UPSTREAM_OWNER}--${name}`.toLowerCase())).toBeDefined();
    }
    expect(new Set(accountOf.values()).size).toBe(2);
    // Runner labels: every job on pool-a ran on its scale set, none elsewhere did.
    for (const job of h.sim.state.jobs.values()) {
      expect(job.labels).toEqual(ownerOfRun(job.runId) === 'pool-a' ? ['arc-linux'] : ['ubuntu-latest']);
    }

    // Every submission finished exactly once: one run, on its upstream's account, one completed check run.
    for (const id of ids) {
      const body = await h.submission(id);
      const runs = await h.env.deps.repos.ci.runsOf(id);
      expect(runs).toHaveLength(1);
      const upstream = String(body.instanceId).startsWith('calc2') ? 'calc2' : 'calc';
      expect(runs[0]!.repoFullName.toLowerCase()).toBe(`${accountOf.get(upstream)}/${UPSTREAM_OWNER}--${upstream}`.toLowerCase());
      const checks = [...h.sim.state.checkRuns.values()].filter((run) => run.externalId === id && run.owner === 'app');
      expect(checks.map((check) => check.status)).toEqual(['completed']);
    }
    // Everything given back.
    const pool = (await h.app.inject({ url: '/v1/pool', headers: { authorization: `Bearer ${h.operator}` } })).json() as { accounts: { jobsRunning: number }[] };
    expect(pool.accounts.map((account) => account.jobsRunning)).toEqual([0, 0]);
  }, 300_000);

  it('a re-run asked for on GitHub (check run button, workflow re-run) goes through admission as a new submission', async () => {
    const first = await h.finished(await h.submit({ instanceId: 'demo-lint', kind: 'baseline' }));
    const second = await h.finished(await h.submit({ instanceId: 'demo-lint', kind: 'baseline' }));
    const account = (await h.env.deps.repos.benchAccounts.findAssignment(UPSTREAM_OWNER, 'calc'))!.account;
    const rerunOf = async (id: string): Promise<string> => {
      const row = await waitFor(async () => (await h.env.deps.db.prisma.submission.findUnique({ where: { idempotencyKey: `rerun-${id}-2` } })) ?? undefined, { timeoutMs: 30_000, intervalMs: 100 });
      return row.id;
    };
    // The account is full when the re-runs are asked for: a 3-job submission published, its run held queued at GitHub
    // (it keeps its slots) until both re-runs are seen waiting.
    h.sim.faults.runNeverStarts({ times: 1 });
    const busy = await h.submit({ instanceId: 'demo-lint', kind: 'baseline' });
    const busyRun = await waitFor(async () => {
      const body = await h.submission(busy);
      return body.state === 'published' ? [...h.sim.state.runs.values()].find((run) => run.headSha === body.headSha) : undefined;
    }, { timeoutMs: 60_000, intervalMs: 50, describe: () => h.submission(busy) });
    let peak = 0;
    const sampler = setInterval(() => { peak = Math.max(peak, activeJobs({ firstAttempts: true }).get(account) ?? 0); }, 20);
    try {
      // GitHub's "Re-run" button of the ci-replay check run: check_run rerequested.
      const check = [...h.sim.state.checkRuns.values()].find((run) => run.externalId === first.id && run.owner === 'app')!;
      h.sim.rerequestCheckRun(check.id);
      // Actions' "Re-run jobs": workflow_run attempt 2, queued at GitHub at once.
      const [run] = await h.env.deps.repos.ci.runsOf(String(second.id));
      h.sim.faults.rerun(Number(run!.githubRunId));
      const reruns = [await rerunOf(String(first.id)), await rerunOf(String(second.id))];
      await waitFor(async () => {
        const all = await Promise.all(reruns.map((id) => h.submission(id)));
        return all.every((body) => body.state === 'queued' && typeof body.queuePosition === 'number') ? all : undefined;
      }, { timeoutMs: 60_000, intervalMs: 50, describe: () => Promise.all(reruns.map((id) => h.submission(id))) });
      h.sim.faults.startRun(busyRun.id);
      const bodies = await waitFor(
        async () => {
          const all = await Promise.all(reruns.map((id) => h.submission(id)));
          return all.every((body) => body.state === 'completed') ? all : undefined;
        },
        { timeoutMs: 100_000, intervalMs: 50, describe: () => Promise.all(reruns.map((id) => h.submission(id))) },
      );
      expect(bodies.map((body) => body.attempt)).toEqual([2, 2]);
    } finally {
      clearInterval(sampler);
    }
    expect(peak).toBeLessThanOrEqual(LIMIT);
    // The attempt GitHub started was cancelled there; the originals keep their single run and their verdicts.
    const [run] = await h.env.deps.repos.ci.runsOf(String(second.id));
    const attempts = h.sim.state.runs.get(Number(run!.githubRunId))!.attempts;
    expect(attempts.map((attempt) => attempt.attempt)).toEqual([1, 2]);
    expect(attempts[1]?.conclusion).toBe('cancelled');
    for (const original of [first, second]) {
      const now = await h.submission(String(original.id));
      expect([now.state, now.verdict]).toEqual([original.state, original.verdict]);
      expect(await h.env.deps.repos.ci.runsOf(String(original.id))).toHaveLength(1);
    }
    const pool = (await h.app.inject({ url: '/v1/pool', headers: { authorization: `Bearer ${h.operator}` } })).json() as { accounts: { jobsRunning: number }[] };
    expect(pool.accounts.map((entry) => entry.jobsRunning)).toEqual([0, 0]);
  }, 200_000);
});
