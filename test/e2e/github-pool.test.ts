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
      await h.env.deps.repos.benchAccounts.upsert({ owner: account, concurrentJobs: LIMIT });
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

  /** Jobs queued or running at the simulator, per benchmark account. */
  const activeJobs = (): Map<string, number> => {
    const counts = new Map<string, number>();
    const ownerOfRun = (runId: number): string | undefined => {
      const run = h.sim.state.runs.get(runId);
      return run === undefined ? undefined : [...h.sim.state.repos.values()].find((repo) => repo.id === run.repoId)?.owner.login;
    };
    for (const job of h.sim.state.jobs.values()) {
      if (job.status === 'completed') continue;
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
        { timeoutMs: 100_000, intervalMs: 100, describe: () => Promise.all(ids.map((id) => h.submission(id))) },
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
  }, 150_000);
});
