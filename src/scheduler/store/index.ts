import type { Redis } from 'ioredis';
import { PRIORITIES, priorityRank, type Priority } from '../priority.js';
import { DISPATCH, ENQUEUE, RECOUNT, RELEASE, WITHDRAW } from './lua.js';

export interface SlotItem {
  submissionId: string;
  account: string;
  priority: Priority;
  /** Fair-share key (the run id). */
  run: string;
  /** Slots it holds once started: the most jobs its workflow can have queued or running at once. */
  jobs: number;
  /**
   * Jobs its workflow starts in all (default `jobs`). When more than it holds (jobs held back by `needs:`, or more
   * jobs than the account's limit), a completed job's slot passes to the run's waiting jobs: it is given back only
   * once fewer jobs than it holds remain.
   */
  total?: number;
}

interface StoredItem {
  account: string;
  priority: number;
  run: string;
  jobs: number;
  total?: number;
  seq: number;
  enqueuedAt: number;
  startedAt?: number;
  held?: number;
}

export type Placement =
  | { state: 'started'; account: string; jobs: number; startedAt: Date }
  | { state: 'waiting'; account: string; jobs: number; priority: Priority; position: number; jobsAhead: number; expectedStartAt: Date; enqueuedAt: Date }
  | { state: 'unknown' };

export interface AccountLoad {
  account: string;
  /** Slots held by started submissions (jobs running or about to). */
  jobsRunning: number;
  submissionsRunning: number;
  /** Waiting submissions and the jobs they will start, per class. */
  queued: Record<Priority, { submissions: number; jobs: number }>;
  /** Submissions that finished in the last hour. */
  finishedLastHour: number;
  /** Mean time a started submission held its slots (the expected-start estimate's unit), ms; null before the first. */
  meanRunMs: number | null;
}

export interface SlotStore {
  /** Queues a submission for its account (idempotent: a submission already waiting or started is left as it is). */
  enqueue(item: SlotItem): Promise<boolean>;
  /** Starts what fits on the account now (atomic); returns the started submission ids. */
  dispatch(account: string, limit: number, options?: { maxStart?: number; holdMs?: number }): Promise<string[]>;
  /** Releases one finished job's slot (idempotent per job id). */
  releaseJob(account: string, submissionId: string, jobId: string): Promise<number>;
  /** Releases everything a submission holds (run completed, cancelled, timed out, failed before running). */
  release(account: string, submissionId: string): Promise<number>;
  /** Takes a waiting submission out of its queue; returns what it was, or null when it was not waiting. */
  withdraw(account: string, submissionId: string): Promise<SlotItem | null>;
  /** Where a submission is: started, waiting (with position and expected start), or not known. */
  placement(submissionId: string, limit: (account: string) => number): Promise<Placement>;
  load(account: string): Promise<AccountLoad>;
  /** Submissions holding slots on the account, with their hold deadlines. */
  held(account: string): Promise<{ submissionId: string; jobs: number; until: number }[]>;
  /** Waiting submissions of an account, in sequence order. */
  waiting(account: string): Promise<SlotItem[]>;
  /** Recomputes the account's used slots from what is held (after a crash). */
  recount(account: string): Promise<number>;
  itemAccount(submissionId: string): Promise<string | null>;
  state(submissionId: string): Promise<{ state: 'started' | 'waiting'; account: string } | null>;
}

export function createSlotStore(redis: Redis, prefix: string): SlotStore {
  const root = `${prefix}:sched`;
  const items = `${root}:items`;
  const seqKey = `${root}:seq`;
  const base = (account: string): string => `${root}:a:{${account.toLowerCase()}}`;
  const readItem = async (submissionId: string): Promise<StoredItem | null> => {
    const raw = await redis.hget(items, submissionId);
    return raw === null ? null : (JSON.parse(raw) as StoredItem);
  };
  const toSlotItem = (submissionId: string, item: StoredItem): SlotItem => ({
    submissionId, account: item.account, priority: PRIORITIES[item.priority] ?? 'campaign', run: item.run, jobs: item.jobs,
    ...(item.total !== undefined && item.total !== item.jobs ? { total: item.total } : {}),
  });
  const queueKeys = async (account: string, priority: number): Promise<{ run: string; key: string }[]> => {
    const runs = await redis.zrange(`${base(account)}:runs:${priority}`, '0', '-1');
    return runs.map((run) => ({ run, key: `${base(account)}:q:${priority}:${run}` }));
  };

  const store: SlotStore = {
    async enqueue(item) {
      const added = await redis.eval(ENQUEUE, 0, base(item.account), items, item.submissionId, item.account, String(priorityRank(item.priority)), item.run, String(item.jobs), String(Date.now()), seqKey, String(Math.max(item.jobs, item.total ?? item.jobs)));
      return added === 1;
    },
    async dispatch(account, limit, options = {}) {
      const started = await redis.eval(DISPATCH, 0, base(account), items, String(limit), String(Math.max(1, limit)), String(Date.now()), String(options.maxStart ?? 1000), String(options.holdMs ?? 6 * 3_600_000));
      return (started as string[] | null) ?? [];
    },
    async releaseJob(account, submissionId, jobId) {
      return Number(await redis.eval(RELEASE, 0, base(account), items, submissionId, '1', jobId, String(Date.now())));
    },
    async release(account, submissionId) {
      return Number(await redis.eval(RELEASE, 0, base(account), items, submissionId, '-1', '', String(Date.now())));
    },
    async withdraw(account, submissionId) {
      const raw = (await redis.eval(WITHDRAW, 0, base(account), items, submissionId)) as string | null;
      return raw === null ? null : toSlotItem(submissionId, JSON.parse(raw) as StoredItem);
    },
    async placement(submissionId, limit) {
      const item = await readItem(submissionId);
      if (item === null) return { state: 'unknown' };
      if (item.startedAt !== undefined) return { state: 'started', account: item.account, jobs: item.held ?? item.jobs, startedAt: new Date(item.startedAt) };
      // Ahead of it: every waiting submission of a higher class, and in its own class, round-robin across runs, as
      // many of each other run as are ahead of it in its own run (fair share), plus those ahead in its own run.
      let ahead = 0;
      let waitingCount = 0;
      const stats = await redis.hmget(`${base(item.account)}:stats`, 'waitingJobs', 'meanRunMs');
      const ownRank = Number((await redis.zrank(`${base(item.account)}:q:${item.priority}:${item.run}`, submissionId)) ?? 0);
      for (let priority = 0; priority < PRIORITIES.length; priority += 1) {
        for (const { run, key } of await queueKeys(item.account, priority)) {
          const size = await redis.zcard(key);
          waitingCount += size;
          if (priority < item.priority) ahead += size;
          else if (priority > item.priority) continue;
          else if (run === item.run) ahead += ownRank;
          else ahead += Math.min(size, ownRank + 1);
        }
      }
      const meanJobs = Math.max(0, Number(stats[0] ?? 0)) / Math.max(1, waitingCount);
      const jobsAhead = Math.round(ahead * meanJobs);
      const capacity = Math.max(1, limit(item.account));
      const used = Number((await redis.get(`${base(item.account)}:used`)) ?? 0);
      const meanRunMs = Number(stats[1] ?? 0);
      const waves = Math.max(0, jobsAhead + item.jobs - (capacity - used)) / capacity;
      const expectedStartAt = new Date(Date.now() + Math.ceil(waves * meanRunMs));
      return { state: 'waiting', account: item.account, jobs: item.jobs, priority: PRIORITIES[item.priority] ?? 'campaign', position: ahead + 1, jobsAhead, expectedStartAt, enqueuedAt: new Date(item.enqueuedAt) };
    },
    async load(account) {
      const b = base(account);
      const [used, heldCount, stats] = await Promise.all([redis.get(`${b}:used`), redis.hlen(`${b}:held`), redis.hgetall(`${b}:stats`)]);
      await redis.zremrangebyscore(`${b}:finished`, '-inf', Date.now() - 3_600_000);
      const finished = await redis.zcard(`${b}:finished`);
      const queued = Object.fromEntries(PRIORITIES.map((p) => [p, { submissions: 0, jobs: 0 }])) as AccountLoad['queued'];
      for (const item of await store.waiting(account)) {
        queued[item.priority].submissions += 1;
        queued[item.priority].jobs += item.jobs;
      }
      const mean = Number(stats.meanRunMs ?? 0);
      return { account, jobsRunning: Number(used ?? 0), submissionsRunning: heldCount, queued, finishedLastHour: finished, meanRunMs: mean > 0 ? mean : null };
    },
    async held(account) {
      const b = base(account);
      const [held, until] = await Promise.all([redis.hgetall(`${b}:held`), redis.zrange(`${b}:until`, '0', '-1', 'WITHSCORES')]);
      const deadlines = new Map<string, number>();
      for (let i = 0; i + 1 < until.length; i += 2) deadlines.set(until[i] ?? '', Number(until[i + 1]));
      return Object.entries(held).map(([submissionId, jobs]) => ({ submissionId, jobs: Number(jobs), until: deadlines.get(submissionId) ?? 0 }));
    },
    async waiting(account) {
      const found: { item: SlotItem; seq: number }[] = [];
      for (let priority = 0; priority < PRIORITIES.length; priority += 1) {
        for (const { key } of await queueKeys(account, priority)) {
          const ids = await redis.zrange(key, '0', '-1');
          if (ids.length === 0) continue;
          const raws = await redis.hmget(items, ...ids);
          ids.forEach((id, index) => {
            const raw = raws[index];
            if (raw === null || raw === undefined) return;
            const stored = JSON.parse(raw) as StoredItem;
            found.push({ item: toSlotItem(id, stored), seq: stored.seq });
          });
        }
      }
      return found.sort((a, b) => a.seq - b.seq).map((entry) => entry.item);
    },
    async recount(account) {
      return Number(await redis.eval(RECOUNT, 0, base(account)));
    },
    async state(submissionId) {
      const item = await readItem(submissionId);
      if (item === null) return null;
      return { state: item.startedAt === undefined ? 'waiting' : 'started', account: item.account };
    },
    async itemAccount(submissionId) {
      return (await readItem(submissionId))?.account ?? null;
    },
  };
  return store;
}
