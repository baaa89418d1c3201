import type { Logger } from 'pino';
import { fairShareKey, PRIORITIES, priorityOf, type Priority } from './priority.js';
import type { PoolAccount } from './pool.js';
import type { AccountLoad, Placement, SlotStore } from './store/index.js';

export interface AdmitInput {
  submissionId: string;
  kind: string;
  runId: string | null;
  upstream: { owner: string; name: string };
  /** Slots it needs: the most jobs its standardized workflow can have queued or running at once (`JobCount.concurrent`). */
  jobs: number;
  /** Jobs the workflow starts in all (`JobCount.jobs`, default `jobs`): slots pass from completed jobs to waiting ones. */
  totalJobs?: number;
}

export type Admission = { state: 'started'; account: string } | { state: 'waiting'; account: string } | { state: 'no_account' };

export interface PoolStatus extends AccountLoad {
  owner: string;
  concurrentJobs: number;
  state: PoolAccount['state'];
  runnerLabels: string[];
  restPerHour: number;
  writesPerMinute: number;
}

export interface SchedulerOptions {
  store: SlotStore;
  /** The pool as configured now (table or file): read on every decision, so operator changes apply at once. */
  accounts(): Promise<PoolAccount[]>;
  /** The account of an upstream: stable once made (AccountAssignment), new ones to the least-loaded account. */
  assign(upstream: { owner: string; name: string }): Promise<string | null>;
  /** The account a queued submission belongs to now (after an operator moved its upstream); null: unknown. */
  accountOf(submissionId: string): Promise<string | null>;
  /** Called with submissions that just got their slots (the pipeline enqueues their prepare job). */
  onStart(started: { submissionId: string; account: string }[]): Promise<void>;
  logger: Logger;
  /** Longest a started submission may hold slots before the reconciler takes them back (RUN_TIMEOUT_MINUTES + grace). */
  holdMs: number;
}

/**
 * The concurrency-aware scheduler: a submission is started only when its account has room for every job its
 * workflow starts, so each account runs at its concurrent-job limit and never beyond. Slots live in Redis and are
 * taken and given back atomically (store/lua.ts); every process shares them.
 */
export interface Scheduler {
  /**
   * Queues a submission for its account and starts what fits; idempotent (a known submission keeps its place).
   * `started`: it holds its slots and the caller goes on with it (onStart is called only for submissions started later).
   */
  admit(input: AdmitInput): Promise<Admission>;
  /** A job of a started submission completed: its slot goes back, or to the run's jobs still waiting on `needs:` (once per job id). */
  jobCompleted(submissionId: string, jobId: string): Promise<void>;
  /** The submission is over (run completed, cancelled, timed out, or ended before running): everything it holds goes back, or it leaves the queue. */
  finished(submissionId: string): Promise<void>;
  placement(submissionId: string): Promise<Placement>;
  /** Starts what fits on every account (after releases, limit changes, or periodically). */
  tick(): Promise<number>;
  pool(): Promise<PoolStatus[]>;
  /**
   * Moves the waiting work of an account that stopped taking work (draining or removed) to the accounts its
   * upstreams are assigned to now (`accountOf`); work already running there stays until it ends. Returns how many moved.
   */
  drain(owner: string): Promise<number>;
  /**
   * After a crash: slots held by submissions that are over (per `isOver`) or past their deadline go back, and each
   * account's count is recomputed from what is held. Returns how many were released.
   */
  reconcile(isOver: (submissionIds: string[]) => Promise<Set<string>>): Promise<number>;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { store } = options;
  const log = options.logger.child({ component: 'scheduler' });
  const limits = new Map<string, number>();
  const remember = (accounts: PoolAccount[]): PoolAccount[] => {
    for (const account of accounts) limits.set(account.owner.toLowerCase(), account.concurrentJobs);
    return accounts;
  };
  const findAccount = async (owner: string): Promise<PoolAccount | undefined> => remember(await options.accounts()).find((a) => a.owner.toLowerCase() === owner.toLowerCase());

  const dispatch = async (account: PoolAccount): Promise<string[]> => {
    // A removed account starts nothing; a draining one finishes what it runs and starts nothing new either.
    if (account.state !== 'active') return [];
    const started = await store.dispatch(account.owner, account.concurrentJobs, { holdMs: options.holdMs });
    if (started.length > 0) {
      log.debug({ account: account.owner, started: started.length }, 'submissions started');
      await options.onStart(started.map((submissionId) => ({ submissionId, account: account.owner })));
    }
    return started;
  };

  const scheduler: Scheduler = {
    async admit(input) {
      const known = await store.state(input.submissionId);
      if (known !== null) return known;
      const owner = await options.assign(input.upstream);
      if (owner === null) return { state: 'no_account' };
      const account = await findAccount(owner);
      const priority: Priority = priorityOf(input);
      await store.enqueue({ submissionId: input.submissionId, account: owner, priority, run: fairShareKey(input), jobs: input.jobs, ...(input.totalJobs !== undefined ? { total: input.totalJobs } : {}) });
      if (account !== undefined) {
        const started = await store.dispatch(account.owner, account.state === 'active' ? account.concurrentJobs : 0, { holdMs: options.holdMs });
        const others = started.filter((id) => id !== input.submissionId);
        if (others.length > 0) await options.onStart(others.map((submissionId) => ({ submissionId, account: owner })));
        if (started.includes(input.submissionId)) return { state: 'started', account: owner };
      }
      return { state: 'waiting', account: owner };
    },
    async jobCompleted(submissionId, jobId) {
      const owner = await store.itemAccount(submissionId);
      if (owner === null) return;
      if ((await store.releaseJob(owner, submissionId, jobId)) === 0) return;
      const account = await findAccount(owner);
      if (account !== undefined) await dispatch(account);
    },
    async finished(submissionId) {
      const owner = await store.itemAccount(submissionId);
      if (owner === null) return;
      await store.withdraw(owner, submissionId);
      if ((await store.release(owner, submissionId)) === 0) return;
      const account = await findAccount(owner);
      if (account !== undefined) await dispatch(account);
    },
    placement: (submissionId) => store.placement(submissionId, (owner) => limits.get(owner.toLowerCase()) ?? 1),
    async tick() {
      let started = 0;
      for (const account of remember(await options.accounts())) started += (await dispatch(account)).length;
      return started;
    },
    async pool() {
      const accounts = remember(await options.accounts());
      return Promise.all(
        accounts.map(async (account) => ({
          ...(await store.load(account.owner)),
          owner: account.owner, concurrentJobs: account.concurrentJobs, state: account.state, runnerLabels: account.runnerLabels,
          restPerHour: account.restPerHour, writesPerMinute: account.writesPerMinute,
        })),
      );
    },
    async drain(owner) {
      let moved = 0;
      for (const item of await store.waiting(owner)) {
        const taken = await store.withdraw(owner, item.submissionId);
        if (taken === null) continue;
        const destination = await options.accountOf(item.submissionId);
        if (destination === null || destination.toLowerCase() === owner.toLowerCase()) {
          await store.enqueue(taken);
          continue;
        }
        await store.enqueue({ ...taken, account: destination });
        moved += 1;
      }
      if (moved > 0) await scheduler.tick();
      return moved;
    },
    async reconcile(isOver) {
      let released = 0;
      for (const account of remember(await options.accounts())) {
        const held = await store.held(account.owner);
        const over = held.length === 0 ? new Set<string>() : await isOver(held.map((entry) => entry.submissionId));
        for (const entry of held) {
          if (!over.has(entry.submissionId) && entry.until > Date.now()) continue;
          released += (await store.release(account.owner, entry.submissionId)) > 0 ? 1 : 0;
          if (entry.until <= Date.now()) log.warn({ account: account.owner, submissionId: entry.submissionId }, 'slots held past the deadline released');
        }
        await store.recount(account.owner);
      }
      if (released > 0) await scheduler.tick();
      return released;
    },
  };
  return scheduler;
}

export { PRIORITIES };
