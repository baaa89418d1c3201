import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScheduler, createSlotStore, toPoolAccount, type PoolAccount, type Scheduler } from '../../../src/scheduler/index.js';
import { testRedisUrl } from '../../support/test-database.js';

/** The scheduler's decisions on Redis (no GitHub): priorities, fair share, limits, releases, crash reconciliation. */
let redis: Redis;
beforeAll(() => {
  redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
});
afterAll(() => redis.disconnect());

function setup(accounts: PoolAccount[]): { scheduler: Scheduler; started: string[] } {
  const started: string[] = [];
  const scheduler = createScheduler({
    store: createSlotStore(redis, `sched-unit-${randomBytes(4).toString('hex')}`),
    accounts: async () => accounts,
    assign: async () => accounts[0]?.owner ?? null,
    accountOf: async () => accounts[0]?.owner ?? null,
    onStart: async (list) => {
      started.push(...list.map((entry) => entry.submissionId));
    },
    logger: pino({ level: 'silent' }),
    holdMs: 60_000,
  });
  return { scheduler, started };
}

const upstream = { owner: 'up', name: 'proj' };

describe('scheduler', () => {
  it('starts a submission only when all its jobs fit, and releases per job once', async () => {
    const { scheduler, started } = setup([toPoolAccount({ owner: 'acct', concurrentJobs: 4 })]);
    expect(await scheduler.admit({ submissionId: 'a', kind: 'candidate', runId: 'r1', upstream, jobs: 3 })).toEqual({ state: 'started', account: 'acct' });
    expect(await scheduler.admit({ submissionId: 'b', kind: 'candidate', runId: 'r1', upstream, jobs: 3 })).toEqual({ state: 'waiting', account: 'acct' });
    // Admitting again keeps its place (idempotent).
    expect((await scheduler.admit({ submissionId: 'b', kind: 'candidate', runId: 'r1', upstream, jobs: 3 })).state).toBe('waiting');
    await scheduler.jobCompleted('a', 'job-1');
    await scheduler.jobCompleted('a', 'job-1'); // a duplicated webhook releases nothing more
    expect(started).toEqual([]);
    expect((await scheduler.pool())[0]?.jobsRunning).toBe(2);
    await scheduler.jobCompleted('a', 'job-2');
    expect(started).toEqual(['b']);
    expect((await scheduler.pool())[0]?.jobsRunning).toBe(4);
    await scheduler.finished('a');
    await scheduler.finished('b');
    const pool = await scheduler.pool();
    expect(pool[0]?.jobsRunning).toBe(0);
    expect(pool[0]?.finishedLastHour).toBe(2);
  });

  it('a run whose jobs wait on needs holds its width, and a completed job\'s slot passes to its waiting jobs', async () => {
    const { scheduler, started } = setup([toPoolAccount({ owner: 'acct', concurrentJobs: 4 })]);
    // lint → test (2 legs) → build: 4 jobs, at most 2 at once.
    expect((await scheduler.admit({ submissionId: 'chain', kind: 'candidate', runId: 'r1', upstream, jobs: 2, totalJobs: 4 })).state).toBe('started');
    expect((await scheduler.admit({ submissionId: 'next', kind: 'candidate', runId: 'r1', upstream, jobs: 2 })).state).toBe('started');
    expect((await scheduler.admit({ submissionId: 'last', kind: 'candidate', runId: 'r1', upstream, jobs: 1 })).state).toBe('waiting');
    // lint completes: its slot goes to the test legs (3 jobs left, 2 held), nothing is given back.
    await scheduler.jobCompleted('chain', 'lint');
    await scheduler.jobCompleted('chain', 'lint');
    expect(started).toEqual([]);
    expect((await scheduler.pool())[0]?.jobsRunning).toBe(4);
    // One test leg completes: 2 jobs left, 2 held: still nothing back.
    await scheduler.jobCompleted('chain', 'test-1');
    expect(started).toEqual([]);
    // The other leg: only build is left, one slot goes back and the waiting submission takes it.
    await scheduler.jobCompleted('chain', 'test-2');
    expect(started).toEqual(['last']);
    expect((await scheduler.pool())[0]?.jobsRunning).toBe(4);
    await scheduler.jobCompleted('chain', 'build');
    expect((await scheduler.placement('chain')).state).toBe('unknown');
    expect((await scheduler.pool())[0]?.jobsRunning).toBe(3);
  });

  it('a workflow with more jobs than the limit holds the whole account until fewer than the limit remain', async () => {
    const { scheduler, started } = setup([toPoolAccount({ owner: 'acct', concurrentJobs: 2 })]);
    expect((await scheduler.admit({ submissionId: 'wide', kind: 'candidate', runId: 'r1', upstream, jobs: 3 })).state).toBe('started');
    await scheduler.admit({ submissionId: 'small', kind: 'candidate', runId: 'r1', upstream, jobs: 1 });
    // GitHub runs 2 of the 3 legs; the first to complete hands its runner to the third, so nothing else may start.
    await scheduler.jobCompleted('wide', 'leg-1');
    expect(started).toEqual([]);
    await scheduler.jobCompleted('wide', 'leg-2');
    expect(started).toEqual(['small']);
  });

  it('interactive before campaign before re-validation; a waiting higher class blocks lower ones', async () => {
    const { scheduler, started } = setup([toPoolAccount({ owner: 'acct', concurrentJobs: 2 })]);
    await scheduler.admit({ submissionId: 'fill', kind: 'candidate', runId: 'r1', upstream, jobs: 2 });
    await scheduler.admit({ submissionId: 'reval', kind: 'revalidation', runId: null, upstream, jobs: 1 });
    await scheduler.admit({ submissionId: 'camp', kind: 'candidate', runId: 'r1', upstream, jobs: 1 });
    await scheduler.admit({ submissionId: 'inter', kind: 'candidate', runId: null, upstream, jobs: 2 });
    const placement = await scheduler.placement('camp');
    expect(placement).toMatchObject({ state: 'waiting', priority: 'campaign', position: 2 });
    // One slot frees: the interactive submission needs two, so nothing of a lower class may take the free one.
    await scheduler.jobCompleted('fill', 'j1');
    expect(started).toEqual([]);
    await scheduler.finished('fill');
    expect(started).toEqual(['inter']);
    await scheduler.finished('inter');
    expect(started).toEqual(['inter', 'camp', 'reval']);
  });

  it('shares an account fairly between runs of the same class', async () => {
    const { scheduler, started } = setup([toPoolAccount({ owner: 'acct', concurrentJobs: 1 })]);
    await scheduler.admit({ submissionId: 'x', kind: 'candidate', runId: 'big', upstream, jobs: 1 });
    for (let i = 0; i < 10; i += 1) await scheduler.admit({ submissionId: `big-${i}`, kind: 'candidate', runId: 'big', upstream, jobs: 1 });
    for (let i = 0; i < 3; i += 1) await scheduler.admit({ submissionId: `small-${i}`, kind: 'candidate', runId: 'small', upstream, jobs: 1 });
    let current = 'x';
    for (let i = 0; i < 13; i += 1) {
      await scheduler.finished(current);
      current = started[started.length - 1] ?? '';
    }
    // The small run, arriving after ten of the big run's submissions, is served in alternation, not after them.
    expect(started.slice(0, 6).filter((id) => id.startsWith('small')).length).toBe(3);
    expect(started).toHaveLength(13);
  });

  it('never holds more than the limit under a random mix of admissions and releases', async () => {
    const { scheduler } = setup([toPoolAccount({ owner: 'acct', concurrentJobs: 7 })]);
    const running = new Set<string>();
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 120; i += 1) {
      const admission = await scheduler.admit({ submissionId: `s${i}`, kind: random() < 0.2 ? 'revalidation' : 'candidate', runId: random() < 0.5 ? 'r1' : 'r2', upstream, jobs: 1 + Math.floor(random() * 4) });
      if (admission.state === 'started') running.add(`s${i}`);
      if (random() < 0.6 && running.size > 0) {
        const victim = [...running][Math.floor(random() * running.size)] ?? '';
        running.delete(victim);
        await scheduler.finished(victim);
      }
      const held = (await scheduler.pool())[0]?.jobsRunning ?? 0;
      expect(held).toBeLessThanOrEqual(7);
    }
  });

  it('reconcile gives back the slots of submissions that ended while nobody released them', async () => {
    const { scheduler, started } = setup([toPoolAccount({ owner: 'acct', concurrentJobs: 2 })]);
    await scheduler.admit({ submissionId: 'crashed', kind: 'candidate', runId: 'r', upstream, jobs: 2 });
    await scheduler.admit({ submissionId: 'next', kind: 'candidate', runId: 'r', upstream, jobs: 2 });
    expect(await scheduler.reconcile(async () => new Set())).toBe(0);
    expect(await scheduler.reconcile(async (ids) => new Set(ids.filter((id) => id === 'crashed')))).toBe(1);
    expect(started).toEqual(['next']);
    expect((await scheduler.placement('next')).state).toBe('started');
  });
});
