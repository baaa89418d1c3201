import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toPoolAccount } from '../../../src/scheduler/index.js';
import { seededRandom } from '../../support/github-sim/runs/synthetic-runner.js';
import { startPoolCampaign, type CampaignSubmission, type PoolCampaign } from '../../support/pool-campaign.js';
import { testRedisUrl } from '../../support/test-database.js';

/**
 * The account pool and the scheduler against the GitHub simulator (per-account concurrent-job limits, synthetic
 * jobs with time-scaled durations): limits never exceeded, assignment stable, an account removed mid-campaign.
 */
let redis: Redis;
let campaign: PoolCampaign | null = null;

beforeAll(() => {
  redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
});
afterAll(async () => {
  redis.disconnect();
});
afterEach(async () => {
  await campaign?.close();
  campaign = null;
});

const upstreams = Array.from({ length: 8 }, (_, i) => ({ owner: 'up', name: `proj${i}`, jobs: 1 + (i % 4) }));

function submissions(count: number, runId: string, prefix: string): CampaignSubmission[] {
  return Array.from({ length: count }, (_, i) => {
    const upstream = upstreams[i % upstreams.length] ?? upstreams[0]!;
    return { id: `${prefix}-${i}`, kind: 'candidate', runId, upstream: { owner: upstream.owner, name: upstream.name }, jobs: upstream.jobs };
  });
}

describe('account pool on the simulator', () => {
  it('never runs more jobs on an account than its limit, and every submission finishes on the account its upstream is assigned to', async () => {
    campaign = await startPoolCampaign({
      redis, prefix: `sched-test-${randomBytes(4).toString('hex')}`,
      accounts: [toPoolAccount({ owner: 'bench-a', concurrentJobs: 4 }), toPoolAccount({ owner: 'bench-b', concurrentJobs: 6 })],
      upstreams, durations: { kind: 'uniform', minMs: 20, maxMs: 80 }, timeScale: 1, random: seededRandom(7),
    });
    const all = submissions(40, 'run-1', 's');
    for (const submission of all) await campaign.submit(submission);
    await campaign.waitAll(all.map((s) => s.id), 120_000);
    expect(campaign.errors).toEqual([]);
    for (const account of ['bench-a', 'bench-b']) {
      const stats = campaign.sim.limits.jobs(account);
      // Demand is what the scheduler published: running plus what GitHub had to queue. Never above the limit.
      expect(stats.peakDemand).toBeLessThanOrEqual(account === 'bench-a' ? 4 : 6);
      expect(stats.started).toBeGreaterThan(0);
    }
    // Assignment is stable: each upstream ran on one account only, the one recorded for it.
    const seen = new Map<string, Set<string>>();
    for (const submission of all) {
      const key = `${submission.upstream.owner}/${submission.upstream.name}`;
      const set = seen.get(key) ?? new Set<string>();
      set.add(campaign.times.get(submission.id)?.account ?? '?');
      seen.set(key, set);
    }
    for (const [key, accounts] of seen) expect([...accounts]).toEqual([campaign.assignments.get(key)]);
    // The 6-job account took more repositories than the 4-job one (least loaded per concurrent job).
    const perAccount = [...campaign.assignments.values()];
    expect(perAccount.filter((o) => o === 'bench-b').length).toBeGreaterThanOrEqual(perAccount.filter((o) => o === 'bench-a').length);
    const pool = await campaign.scheduler.pool();
    expect(pool.map((p) => p.jobsRunning)).toEqual([0, 0]);
    expect(pool.reduce((sum, p) => sum + p.finishedLastHour, 0)).toBe(40);
  }, 180_000);

  it('assigns new upstreams by expected work, not repository count: equal accounts get equal job-time', async () => {
    // One heavy upstream (8 jobs per run) and seven light ones (1 job): by repository count two equal accounts take
    // four each (8+1+1+1 = 11 against 4); by expected work the heavy one's account takes nothing else until even.
    const skewed = [{ owner: 'up', name: 'heavy', jobs: 8 }, ...Array.from({ length: 7 }, (_, i) => ({ owner: 'up', name: `light${i}`, jobs: 1 }))];
    const work = (c: PoolCampaign): Map<string, number> => {
      const total = new Map<string, number>();
      for (const u of skewed) {
        const owner = c.assignments.get(`${u.owner}/${u.name}`) ?? '?';
        total.set(owner, (total.get(owner) ?? 0) + u.jobs);
      }
      return total;
    };
    const accounts = [toPoolAccount({ owner: 'bench-a', concurrentJobs: 4 }), toPoolAccount({ owner: 'bench-b', concurrentJobs: 4 })];
    campaign = await startPoolCampaign({ redis, prefix: `sched-test-${randomBytes(4).toString('hex')}`, accounts, upstreams: skewed, durations: { kind: 'fixed', ms: 10 }, timeScale: 1 });
    await campaign.prepareRepos(skewed);
    const byWork = work(campaign);
    expect([...byWork.values()].sort((a, b) => a - b)).toEqual([7, 8]);
    // Stable: asked again (a submission of an assigned upstream), the account does not change.
    const heavyAccount = campaign.assignments.get('up/heavy');
    await campaign.prepareRepos(skewed);
    expect(campaign.assignments.get('up/heavy')).toBe(heavyAccount);
    await campaign.close();
    campaign = await startPoolCampaign({ redis, prefix: `sched-test-${randomBytes(4).toString('hex')}`, accounts, upstreams: skewed, durations: { kind: 'fixed', ms: 10 }, timeScale: 1, assignByRepositories: true });
    await campaign.prepareRepos(skewed);
    expect([...work(campaign).values()].sort((a, b) => a - b)).toEqual([4, 11]);
  }, 180_000);

  it('an account removed mid-campaign: its waiting work moves to the other account, its running work ends, nothing is lost', async () => {
    campaign = await startPoolCampaign({
      redis, prefix: `sched-test-${randomBytes(4).toString('hex')}`,
      accounts: [toPoolAccount({ owner: 'bench-a', concurrentJobs: 4 }), toPoolAccount({ owner: 'bench-b', concurrentJobs: 4 })],
      upstreams, durations: { kind: 'fixed', ms: 60 }, timeScale: 1,
    });
    const all = submissions(30, 'run-1', 'm');
    for (const submission of all) await campaign.submit(submission);
    const before = (await campaign.scheduler.pool()).find((p) => p.owner === 'bench-a');
    expect((before?.queued.campaign.submissions ?? 0)).toBeGreaterThan(0);
    // The operator removes bench-a: it takes nothing new, its upstreams move, its waiting work follows them.
    campaign.setAccountState('bench-a', 'removed');
    const movedRepos = campaign.moveAssignments('bench-a');
    expect(movedRepos).toBeGreaterThan(0);
    const moved = await campaign.scheduler.drain('bench-a');
    expect(moved).toBeGreaterThan(0);
    await campaign.waitAll(all.map((s) => s.id), 120_000);
    expect(campaign.errors).toEqual([]);
    const after = (await campaign.scheduler.pool()).find((p) => p.owner === 'bench-a');
    expect(after?.queued.campaign.submissions).toBe(0);
    expect(campaign.sim.limits.jobs('bench-b').peakDemand).toBeLessThanOrEqual(4);
    expect(campaign.sim.limits.jobs('bench-a').peakDemand).toBeLessThanOrEqual(4);
    expect([...campaign.times.values()].every((t) => t.finishedAt !== undefined)).toBe(true);
  }, 180_000);
});
