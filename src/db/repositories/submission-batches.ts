import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Prisma } from '../client.js';
import { insertMany, type NewSubmission } from './submissions.js';

/** A batch recorded under its Idempotency-Key (see model SubmissionBatch). */
export interface StoredBatch {
  idempotencyKey: string;
  runId: string;
  requestHash: string;
  result: unknown;
}

export interface NewBatch {
  /** `<tokenId>:<key>`, or null for a batch sent without a key (nothing is recorded for it). */
  idempotencyKey: string | null;
  runId: string;
  requestHash: string;
  result: object;
  /** The submissions, with their ids, in chunks (read from a spool: memory holds one chunk). */
  rows: AsyncIterable<(NewSubmission & { id: string })[]>;
}

export type BatchCommit = { committed: true } | { committed: false; existing: StoredBatch };

export interface SubmissionBatchRepository {
  find(idempotencyKey: string): Promise<StoredBatch | null>;
  /**
   * Writes the batch's key and all its submissions in one transaction: all or nothing. When another batch holds
   * the key (committed, or committing now: the insert waits for it), nothing is written and that batch is returned.
   */
  commit(batch: NewBatch): Promise<BatchCommit>;
}

export function createSubmissionBatchRepository(prisma: Prisma, pool: pg.Pool): SubmissionBatchRepository {
  const find = (idempotencyKey: string): Promise<StoredBatch | null> =>
    prisma.submissionBatch.findUnique({ where: { idempotencyKey }, select: { idempotencyKey: true, runId: true, requestHash: true, result: true } });
  return {
    find,
    async commit(batch) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        if (batch.idempotencyKey !== null) {
          const claimed = await client.query(
            `INSERT INTO "SubmissionBatch" ("id", "idempotencyKey", "runId", "requestHash", "result") VALUES ($1, $2, $3, $4, $5::jsonb)
             ON CONFLICT ("idempotencyKey") DO NOTHING RETURNING "id"`,
            [randomUUID(), batch.idempotencyKey, batch.runId, batch.requestHash, JSON.stringify(batch.result)],
          );
          if (claimed.rowCount === 0) {
            await client.query('ROLLBACK');
            const existing = await find(batch.idempotencyKey);
            // The holder cannot vanish: keys are never deleted except with their run.
            if (existing === null) throw new Error(`batch key ${batch.idempotencyKey} conflicted but cannot be read`);
            return { committed: false, existing };
          }
        }
        for await (const rows of batch.rows) await insertMany(client, rows);
        await client.query('COMMIT');
        return { committed: true };
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw error;
      } finally {
        // A connection whose rollback failed is discarded rather than returned to the pool mid-transaction.
        client.release(broken);
      }
    },
  };
}
