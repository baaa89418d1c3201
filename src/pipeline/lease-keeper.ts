import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Repositories, SubmissionRow } from '../db/index.js';

/**
 * Why a held lease ended before its holder released it: `lost` (it was not renewed in time and the recovery sweep,
 * a cancel or the end of the submission took it away) or `shutdown` (the worker hands its work back).
 */
export type LeaseEnd = 'lost' | 'shutdown';

/** A lease this worker holds on one submission. */
export interface HeldLease {
  readonly submission: SubmissionRow;
  /** Aborted (with the LeaseEnd as reason) when the lease ends before it is released: the holder must stop. */
  readonly signal: AbortSignal;
  ended(): LeaseEnd | null;
  /** The worker instance holding it: the fence of writes that must come from the holder only. */
  readonly owner: string;
  /**
   * Re-validates the lease before a side effect (one conditional statement, which also renews it): false, and the
   * holder is aborted with `lost`, when another worker, a cancel or the end of the submission took it.
   */
  confirm(): Promise<boolean>;
  /**
   * Runs `fn` holding the submission's publish lock, so no takeover publishes at the same time (see
   * LeaseRepository.withPublishLock). Null, without running `fn`, when another worker is publishing it.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<{ value: T } | null>;
  /** Lets go: the sweep looks at the submission again after `handOffSeconds` (0: at once). */
  release(handOffSeconds: number): Promise<void>;
}

export interface LeaseKeeper {
  /** This worker instance: host, pid and a random part (a restarted worker is another owner). */
  readonly owner: string;
  readonly seconds: number;
  /** Takes the submission's lease (null: a live worker holds it); renewed every third of LEASE_SECONDS until released. */
  acquire(submissionId: string): Promise<HeldLease | null>;
  /** Ends every held lease with `shutdown`: their holders stop and hand their jobs back. */
  handBackAll(): void;
  /** How many leases are held. */
  held(): number;
  /** Stops renewing and releases what is still held, expiring at once (the sweep resumes it). */
  stop(): Promise<void>;
}

interface Entry {
  controller: AbortController;
  acquiredAt: number;
}

export const workerInstanceId = (): string => `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/**
 * Keeps this worker's leases alive: one statement renews all of them every third of the lease. A lease that was not
 * renewed (someone else holds it now, or it was ended) aborts its holder, so two workers never run one submission.
 * While the database is away renewals fail and are tried again at the next beat; a lease still ours when it is
 * back is renewed, one the sweep took meanwhile is lost.
 */
export function createLeaseKeeper(options: { repos: Pick<Repositories, 'leases'>; seconds: number; logger: Logger; owner?: string }): LeaseKeeper {
  const { repos, seconds, logger } = options;
  const owner = options.owner ?? workerInstanceId();
  const held = new Map<string, Entry>();
  let timer: NodeJS.Timeout | undefined;
  let renewing = false;

  /** A lost lease is forgotten at once (it is not ours to release); one handed back stays held, and renewed, until released. */
  const end = (id: string, reason: LeaseEnd): void => {
    const entry = held.get(id);
    if (entry === undefined || entry.controller.signal.aborted) return;
    if (reason === 'lost') held.delete(id);
    entry.controller.abort(reason);
    if (held.size === 0) stopTimer();
  };

  async function renew(): Promise<void> {
    if (renewing) return;
    renewing = true;
    const startedAt = Date.now();
    try {
      const still = new Set(await repos.leases.renew(owner, seconds));
      for (const [id, entry] of [...held]) {
        // A lease taken after this renewal started may not be in its answer yet.
        if (still.has(id) || entry.acquiredAt >= startedAt || entry.controller.signal.aborted) continue;
        logger.warn({ submissionId: id, owner }, 'lease lost: another worker, a cancel or the end of the submission took it; stopping its work');
        end(id, 'lost');
      }
    } catch (error) {
      logger.warn({ err: error, held: held.size }, 'lease renewal failed; trying again at the next beat');
    } finally {
      renewing = false;
    }
  }

  function startTimer(): void {
    if (timer !== undefined) return;
    timer = setInterval(() => void renew(), Math.max(500, (seconds * 1000) / 3));
    timer.unref();
  }

  function stopTimer(): void {
    if (timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
  }

  return {
    owner,
    seconds,
    async acquire(submissionId) {
      const acquiredAt = Date.now();
      const submission = await repos.leases.acquire(submissionId, owner, seconds);
      if (submission === null) return null;
      const controller = new AbortController();
      held.get(submissionId)?.controller.abort('lost');
      held.set(submissionId, { controller, acquiredAt });
      startTimer();
      return {
        submission,
        signal: controller.signal,
        ended: () => (controller.signal.aborted ? (controller.signal.reason as LeaseEnd) : null),
        owner,
        async confirm() {
          if (controller.signal.aborted) return false;
          if (await repos.leases.confirm(submissionId, owner, seconds)) return true;
          logger.warn({ submissionId, owner }, 'lease lost before a side effect: another worker, a cancel or the end of the submission took it; stopping its work');
          if (held.get(submissionId)?.controller === controller) end(submissionId, 'lost');
          else controller.abort('lost');
          return false;
        },
        exclusive: (fn) => repos.leases.withPublishLock(submissionId, fn),
        async release(handOffSeconds) {
          if (held.get(submissionId)?.controller !== controller) return;
          held.delete(submissionId);
          if (held.size === 0) stopTimer();
          await repos.leases.release(submissionId, owner, handOffSeconds);
        },
      };
    },
    handBackAll() {
      for (const id of [...held.keys()]) end(id, 'shutdown');
    },
    held: () => held.size,
    async stop() {
      stopTimer();
      held.clear();
      await repos.leases.releaseAll(owner).catch((error: unknown) => logger.warn({ err: error }, 'leases not released; they expire on their own'));
    },
  };
}
