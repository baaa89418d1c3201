import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import { isAppError } from '../errors.js';

/**
 * Transient errors that say a dependency every job needs is away, rather than anything about this job: the
 * database (mapDbError's `database_unavailable`). A job hit by one waits for the dependency instead of spending
 * its retry attempts (BullMQ's `attempts` would turn a 20-second outage into permanently failed jobs).
 */
const OUTAGE_CODES = new Set(['database_unavailable']);

export const isOutage = (error: unknown): boolean => isAppError(error) && error.kind === 'transient' && OUTAGE_CODES.has(error.code);

export interface OutagePolicy {
  /** How long a job waits for the database before it gives up (DB_OUTAGE_DEADLINE_MINUTES). */
  deadlineMs: number;
  /** First wait between two tries (default 1 s); doubles up to maxDelayMs. */
  baseDelayMs?: number;
  /** Longest wait between two tries (default 15 s): how soon work resumes once the database is back. */
  maxDelayMs?: number;
}

/** Where a job keeps its outage bookkeeping (job data; ids and timestamps only). */
const OUTAGE_KEY = 'dbOutage';

const outageSchema = z.object({
  since: z.number(),
  last: z.number(),
  tries: z.number().int().min(0),
  gaveUp: z.boolean().default(false),
});
export type OutageState = z.infer<typeof outageSchema>;

export function readOutage(data: unknown): OutageState | undefined {
  const raw = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[OUTAGE_KEY] : undefined;
  const parsed = outageSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

const delays = (policy: OutagePolicy): { base: number; max: number } => ({ base: policy.baseDelayMs ?? 1000, max: policy.maxDelayMs ?? 15_000 });

/** A try this long after the previous outage try belongs to a new outage (the job made progress in between). */
const newOutageAfterMs = (policy: OutagePolicy): number => Math.max(4 * delays(policy).max, 60_000);

/**
 * The bookkeeping after one more failed try at `now`. A job that made progress in between (its last outage try is
 * more than four maximal waits, and at least a minute, ago) starts a new outage: the deadline counts from the latest
 * one. The minute keeps a slow machine, whose delayed jobs come back late, from splitting one outage in many.
 */
export function nextOutage(previous: OutageState | undefined, now: number, policy: OutagePolicy): OutageState {
  if (previous === undefined || now - previous.last > newOutageAfterMs(policy)) return { since: now, last: now, tries: 1, gaveUp: false };
  return { ...previous, last: now, tries: previous.tries + 1 };
}

/** Wait before the next try: exponential from the base, capped. */
export function outageDelay(state: OutageState, policy: OutagePolicy): number {
  const { base, max } = delays(policy);
  return Math.min(base * 2 ** Math.max(0, state.tries - 1), max);
}

export const pastDeadline = (state: OutageState, now: number, policy: OutagePolicy): boolean => now - state.since >= policy.deadlineMs;

/** Puts the job back as delayed without spending an attempt (BullMQ's skipAttempt), recording the outage. */
export async function postpone(job: Job, token: string, state: OutageState, delayMs: number): Promise<never> {
  await job.updateData({ ...(job.data as object), [OUTAGE_KEY]: state });
  await job.moveToDelayed(Date.now() + delayMs, token);
  throw new DelayedError();
}

export interface OutageContext {
  job: Job;
  /** The worker's lock token (needed to postpone the job); without one the policy does not apply. */
  token: string | undefined;
  policy: OutagePolicy;
  logger: Logger;
  /** Ends the job's work visibly once the deadline passed (e.g. the submission ends infra_error); absent: keep waiting. */
  giveUp: (() => Promise<void>) | undefined;
}

/**
 * Runs a job's work under the outage policy. While the work fails because the database is away, the job is put
 * back as delayed (BullMQ's DelayedError, no attempt spent) with growing waits; past the deadline the give-up runs
 * instead of the work, itself retried the same way while the database stays away, and the job completes. Any
 * other error of the work is rethrown for the ordinary retry policy.
 */
export async function withOutagePolicy(context: OutageContext, work: () => Promise<void>): Promise<void> {
  const { job, token, policy, logger, giveUp } = context;
  const previous = readOutage(job.data);
  const abandon = async (state: OutageState): Promise<void> => {
    if (giveUp === undefined) return;
    try {
      await giveUp();
    } catch (error) {
      if (!isOutage(error) || token === undefined) throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
      const next = { ...nextOutage(state, Date.now(), policy), gaveUp: true };
      await postpone(job, token, next, outageDelay(next, policy));
    }
  };
  if (previous?.gaveUp === true) {
    await abandon(previous);
    return;
  }
  try {
    await work();
  } catch (error) {
    if (!isOutage(error) || token === undefined) throw error;
    const state = nextOutage(previous, Date.now(), policy);
    if (giveUp === undefined || !pastDeadline(state, Date.now(), policy)) {
      const delayMs = outageDelay(state, policy);
      logger.warn({ code: 'database_unavailable', tries: state.tries, waitingSinceMs: Date.now() - state.since, delayMs }, 'database unavailable; the job waits for it (no attempt spent)');
      await postpone(job, token, state, delayMs);
    }
    logger.error({ err: error, waitedMs: Date.now() - state.since }, 'database unavailable past the deadline; giving up');
    await abandon({ ...state, gaveUp: true });
  }
}
