import type pg from 'pg';
import type { Prisma } from '../client.js';
import type { SubmissionRow } from '../types.js';

/** The states a lease is about: past `queued` (whose holder is its queue job) and not yet final. */
export const LEASED_STATES = ['preparing', 'published', 'running'] as const;
/** A prepare job holds the lease from before it moves the submission out of `queued`. */
const HOLDABLE_STATES = ['queued', ...LEASED_STATES];
/** The advisory-lock namespace of publish locks (first key of pg_try_advisory_lock(int, int)). */
const PUBLISH_LOCK_SPACE = 0x63727031;

/** What the recovery sweep needs to decide how to resume a submission whose lease expired. */
export interface ExpiredLease {
  id: string;
  state: string;
  leaseOwner: string | null;
  resumeCount: number;
  cancelRequested: boolean;
}

export interface LeaseRepository {
  /**
   * Takes the lease of a submission that is not final, for `seconds`, when nobody holds it, this owner holds it, or
   * its holder's lease expired (one more resume). Returns the row (patch included) once taken, null when a live
   * holder has it.
   */
  acquire(id: string, owner: string, seconds: number): Promise<SubmissionRow | null>;
  /** Extends every lease the owner holds on submissions that are not final; returns the ids still held. */
  renew(owner: string, seconds: number): Promise<string[]>;
  /**
   * Lets go of a lease the owner holds: nobody holds it from now on, and the sweep looks at it again after
   * `handOffSeconds` (0: at once, e.g. handed back on shutdown). Returns whether the owner still held it.
   */
  release(id: string, owner: string, handOffSeconds: number): Promise<boolean>;
  /** Releases every lease of an owner (shutdown), expiring at once; returns how many. */
  releaseAll(owner: string): Promise<number>;
  /**
   * Submissions whose worker's lease expired, oldest first: past `queued` and not final, or still `queued` but taken
   * by a prepare job. A row past `queued` without a lease (written before leases existed, or by a process without
   * a keeper) counts as expired once untouched for `graceSeconds`.
   */
  findExpired(limit: number, graceSeconds: number): Promise<ExpiredLease[]>;
  /**
   * Claims an expired lease for the sweep: still expired and held by `expectedOwner` → nobody holds it and it is
   * looked at again after `seconds`; `resumed` counts one more resume. Null when someone moved it meanwhile.
   */
  claimExpired(id: string, expectedOwner: string | null, seconds: number, resumed: boolean): Promise<{ resumeCount: number } | null>;
  /**
   * Re-validates a lease before a side effect: still held by `owner` (nobody took it over) → renewed for `seconds`,
   * true; false otherwise. One conditional statement, so the answer is the fence.
   */
  confirm(id: string, owner: string, seconds: number): Promise<boolean>;
  /**
   * Runs `fn` holding the submission's publish lock (a session-level Postgres advisory lock on a connection of its
   * own): two workers never publish one submission at the same time, even when a lease lapses mid-push. The lock
   * dies with its holder's connection (a killed worker). Null, without running `fn`, when another holder has it.
   */
  withPublishLock<T>(id: string, fn: () => Promise<T>): Promise<{ value: T } | null>;
  /** Counts one more resume of a submission (its queue job was replaced); returns the new count. */
  countResume(id: string): Promise<number>;
  /** Queued submissions after `afterId` (id order), for checking their queue jobs: ids, when they last changed, who holds them. */
  listQueued(afterId: string | null, limit: number, createdBefore: Date): Promise<{ id: string; updatedAt: Date; leaseOwner: string | null }[]>;
}

export function createLeaseRepository(prisma: Prisma, pool: pg.Pool): LeaseRepository {
  return {
    async acquire(id, owner, seconds) {
      const result = await pool.query<{ id: string }>(
        // Taking over from another worker whose lease expired counts as one resume.
        `UPDATE "Submission" SET "leaseOwner" = $2, "leaseExpiresAt" = now() + make_interval(secs => $3), "updatedAt" = now(),
           "resumeCount" = "resumeCount" + CASE WHEN "leaseOwner" IS NOT NULL AND "leaseOwner" <> $2 THEN 1 ELSE 0 END
         WHERE "id" = $1::uuid AND "state" = ANY($4::text[])
           AND ("leaseOwner" IS NULL OR "leaseOwner" = $2 OR "leaseExpiresAt" IS NULL OR "leaseExpiresAt" < now())
         RETURNING "id"`,
        [id, owner, seconds, HOLDABLE_STATES],
      );
      if (result.rowCount !== 1) return null;
      return prisma.submission.findUnique({ where: { id } });
    },
    async renew(owner, seconds) {
      const result = await pool.query<{ id: string }>(
        `UPDATE "Submission" SET "leaseExpiresAt" = now() + make_interval(secs => $2)
         WHERE "leaseOwner" = $1 AND "state" = ANY($3::text[]) RETURNING "id"`,
        [owner, seconds, HOLDABLE_STATES],
      );
      return result.rows.map((row) => row.id);
    },
    async release(id, owner, handOffSeconds) {
      const result = await pool.query(
        `UPDATE "Submission" SET "leaseOwner" = NULL,
           "leaseExpiresAt" = CASE WHEN "state" = ANY($4::text[]) THEN now() + make_interval(secs => $3) ELSE NULL END
         WHERE "id" = $1::uuid AND "leaseOwner" = $2`,
        [id, owner, handOffSeconds, HOLDABLE_STATES],
      );
      return result.rowCount === 1;
    },
    async releaseAll(owner) {
      const result = await pool.query(`UPDATE "Submission" SET "leaseOwner" = NULL, "leaseExpiresAt" = now() WHERE "leaseOwner" = $1`, [owner]);
      return result.rowCount ?? 0;
    },
    async findExpired(limit, graceSeconds) {
      const result = await pool.query<{ id: string; state: string; leaseOwner: string | null; resumeCount: number; cancelRequested: boolean }>(
        `SELECT "id", "state", "leaseOwner", "resumeCount", "cancelRequestedAt" IS NOT NULL AS "cancelRequested" FROM "Submission"
         WHERE ("state" = ANY($1::text[])
             AND ("leaseExpiresAt" < now() OR ("leaseExpiresAt" IS NULL AND "updatedAt" < now() - make_interval(secs => $2))))
           OR ("state" = 'queued' AND "leaseOwner" IS NOT NULL AND "leaseExpiresAt" < now())
         ORDER BY "leaseExpiresAt" ASC NULLS FIRST LIMIT $3`,
        [[...LEASED_STATES], graceSeconds, limit],
      );
      return result.rows;
    },
    async claimExpired(id, expectedOwner, seconds, resumed) {
      const result = await pool.query<{ resumeCount: number }>(
        `UPDATE "Submission" SET "leaseOwner" = NULL, "leaseExpiresAt" = now() + make_interval(secs => $3),
           "resumeCount" = "resumeCount" + $4
         WHERE "id" = $1::uuid AND "state" = ANY($5::text[]) AND "leaseOwner" IS NOT DISTINCT FROM $2
           AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < now())
         RETURNING "resumeCount"`,
        [id, expectedOwner, seconds, resumed ? 1 : 0, HOLDABLE_STATES],
      );
      return result.rows[0] ?? null;
    },
    async confirm(id, owner, seconds) {
      const result = await pool.query(
        `UPDATE "Submission" SET "leaseExpiresAt" = now() + make_interval(secs => $3)
         WHERE "id" = $1::uuid AND "leaseOwner" = $2 AND "state" = ANY($4::text[])`,
        [id, owner, seconds, HOLDABLE_STATES],
      );
      return result.rowCount === 1;
    },
    async withPublishLock(id, fn) {
      const client = await pool.connect();
      // Two int4 keys: a namespace for publish locks and the submission id's hash.
      const keys = [PUBLISH_LOCK_SPACE, id];
      let locked = false;
      try {
        const taken = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, hashtext($2)) AS "ok"', keys);
        locked = taken.rows[0]?.ok === true;
        if (!locked) return null;
        return { value: await fn() };
      } finally {
        // A failed unlock (connection gone) frees the lock anyway: it is the session's; the client is then discarded.
        const unlocked = !locked || (await client.query('SELECT pg_advisory_unlock($1::int, hashtext($2))', keys).then(() => true, () => false));
        client.release(unlocked ? undefined : true);
      }
    },
    async countResume(id) {
      const result = await pool.query<{ resumeCount: number }>(`UPDATE "Submission" SET "resumeCount" = "resumeCount" + 1 WHERE "id" = $1::uuid RETURNING "resumeCount"`, [id]);
      return result.rows[0]?.resumeCount ?? 0;
    },
    async listQueued(afterId, limit, createdBefore) {
      return prisma.submission.findMany({
        where: { state: 'queued', createdAt: { lt: createdBefore }, ...(afterId === null ? {} : { id: { gt: afterId } }) },
        orderBy: { id: 'asc' },
        take: limit,
        select: { id: true, updatedAt: true, leaseOwner: true },
      });
    },
  };
}
