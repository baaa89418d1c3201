import { randomUUID } from 'node:crypto';
import { isTerminal, STATE_OUTCOMES, type SubmissionKind, type SubmissionState } from '../../domain/states.js';
import type pg from 'pg';
import type { Prisma } from '../client.js';
import type { SubmissionRow } from '../types.js';

export interface NewSubmission {
  instanceId: string;
  runId: string | null;
  kind: SubmissionKind;
  patch: string;
  patchSha256: string;
  idempotencyKey: string | null;
  requestHash: string | null;
  /** The API token that owns the submission; null or absent (CLI, pipeline) = operators only. */
  ownerTokenId?: string | null;
  /** A re-run's attempt (the original's + 1), set with the row so no reader sees the re-run as attempt 1. */
  attempt?: number;
}

export type SubmissionSummary = Omit<SubmissionRow, 'patch'>;

export interface SubmissionFilter {
  runId?: string;
  state?: string;
  instanceId?: string;
  /** Only this token's submissions (a submitter's list); absent = all. */
  ownerTokenId?: string;
  cursor?: string;
  limit: number;
}

export type SubmissionPatch = Partial<
  Pick<
    SubmissionRow,
    | 'verdict'
    | 'outcome'
    | 'reason'
    | 'errorMessage'
    | 'branch'
    | 'headSha'
    | 'checkRunId'
    | 'benchRepoId'
    | 'revertedFiles'
    | 'observedLabels'
    | 'preparedAt'
    | 'publishedAt'
    | 'startedAt'
    | 'completedAt'
    | 'attempt'
  >
> & { standardization?: object; reasonDetails?: object };

export interface SubmissionRepository {
  /** Inserts unless the idempotency key exists; returns the row holding the key either way. */
  createIdempotent(input: NewSubmission): Promise<{ submission: SubmissionSummary; created: boolean }>;
  /** Inserts many rows in one statement; returns their ids in input order. */
  createMany(inputs: NewSubmission[]): Promise<string[]>;
  get(id: string): Promise<SubmissionRow | null>;
  getSummary(id: string): Promise<SubmissionSummary | null>;
  list(filter: SubmissionFilter): Promise<SubmissionSummary[]>;
  /**
   * Moves to `to` only from one of `from` (state only moves forward); returns whether it moved. A terminal error
   * state also records its outcome and reason when the caller gave none (see withOutcome).
   */
  /** `fence.leaseOwner`: moved only while that worker still holds the lease (checked in the same statement). */
  transition(id: string, from: readonly SubmissionState[], to: SubmissionState, patch?: SubmissionPatch, fence?: { leaseOwner: string }): Promise<boolean>;
  update(id: string, patch: SubmissionPatch): Promise<void>;
  markEnqueued(ids: string[]): Promise<void>;
  /** Queued rows never handed to the queue (Redis was down), oldest first. */
  findUnenqueued(limit: number, createdBefore: Date): Promise<string[]>;
  requestCancel(id: string): Promise<void>;
  findByHeadSha(headSha: string): Promise<SubmissionSummary[]>;
  findStale(states: readonly SubmissionState[], updatedBefore: Date, limit: number): Promise<SubmissionSummary[]>;
  listForRuns(runIds: string[]): Promise<SubmissionSummary[]>;
}

const OMIT_PATCH = { patch: true } as const;

/**
 * Every terminal error state carries an outcome and a reason code, wherever the transition comes from (prepare,
 * reconcile, cancel, tracks): the state's outcome (publish_failed → infra_error) unless the caller gave one, and the
 * state's reason code when the caller gave none or only repeated the state's name (`patch_failed` →
 * `patch_does_not_apply`, a prepare `infra_error` → `prepare_failed`). `completed` is left to finalize.
 */
function withOutcome(to: SubmissionState, patch: SubmissionPatch): SubmissionPatch {
  const defaults = STATE_OUTCOMES[to];
  if (defaults === undefined) return patch;
  const reason = patch.reason === undefined || patch.reason === null || patch.reason === to ? defaults.reason : patch.reason;
  return { ...patch, outcome: patch.outcome ?? defaults.outcome, reason };
}

/**
 * Batch insert in one statement over column arrays (`unnest`), straight through pg: Prisma's createMany keeps a
 * query plan per distinct data set, so thousands of batches would grow the heap.
 */
export async function insertMany(pool: Pick<pg.PoolClient, 'query'>, rows: (NewSubmission & { id: string })[]): Promise<void> {
  if (rows.length === 0) return;
  const column = <K extends keyof (NewSubmission & { id: string })>(key: K) => rows.map((row) => row[key] ?? null);
  await pool.query(
    `INSERT INTO "Submission" ("id", "runId", "instanceId", "kind", "patch", "patchSha256", "idempotencyKey", "requestHash", "ownerTokenId", "state", "revertedFiles", "observedLabels", "updatedAt")
     SELECT id, run_id, instance_id, kind, patch, patch_sha256, idempotency_key, request_hash, owner_token_id, 'queued', '{}', '{}', now()
     FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::uuid[])
       AS t(id, run_id, instance_id, kind, patch, patch_sha256, idempotency_key, request_hash, owner_token_id)`,
    [column('id'), column('runId'), column('instanceId'), column('kind'), column('patch'), column('patchSha256'), column('idempotencyKey'), column('requestHash'), column('ownerTokenId')],
  );
}

export function createSubmissionRepository(prisma: Prisma, pool: pg.Pool): SubmissionRepository {
  return {
    async createIdempotent(input) {
      const id = randomUUID();
      const inserted = await prisma.submission.createMany({ data: [{ id, ...input }], skipDuplicates: true });
      if (input.idempotencyKey === null || inserted.count === 1) {
        const submission = await prisma.submission.findUniqueOrThrow({ where: { id }, omit: OMIT_PATCH });
        return { submission, created: true };
      }
      const submission = await prisma.submission.findUniqueOrThrow({ where: { idempotencyKey: input.idempotencyKey }, omit: OMIT_PATCH });
      return { submission, created: false };
    },
    async createMany(inputs) {
      const rows = inputs.map((input) => ({ id: randomUUID(), ...input }));
      await insertMany(pool, rows);
      return rows.map((row) => row.id);
    },
    get: (id) => prisma.submission.findUnique({ where: { id } }),
    getSummary: (id) => prisma.submission.findUnique({ where: { id }, omit: OMIT_PATCH }),
    list: (filter) =>
      prisma.submission.findMany({
        where: {
          ...(filter.runId !== undefined ? { runId: filter.runId } : {}),
          ...(filter.state !== undefined ? { state: filter.state } : {}),
          ...(filter.instanceId !== undefined ? { instanceId: filter.instanceId } : {}),
          ...(filter.ownerTokenId !== undefined ? { ownerTokenId: filter.ownerTokenId } : {}),
          ...(filter.cursor !== undefined ? { id: { gt: filter.cursor } } : {}),
        },
        orderBy: { id: 'asc' },
        take: filter.limit,
        omit: OMIT_PATCH,
      }),
    async transition(id, from, to, patch = {}, fence) {
      const result = await prisma.submission.updateMany({
        where: { id, state: { in: [...from] }, ...(fence !== undefined ? { leaseOwner: fence.leaseOwner } : {}) },
        // A final state ends the lease: nobody works on it any more.
        data: { ...withOutcome(to, patch), state: to, ...(isTerminal(to) ? { leaseOwner: null, leaseExpiresAt: null } : {}) },
      });
      return result.count === 1;
    },
    async update(id, patch) {
      await prisma.submission.update({ where: { id }, data: patch });
    },
    async markEnqueued(ids) {
      if (ids.length === 0) return;
      await prisma.submission.updateMany({ where: { id: { in: ids }, enqueuedAt: null }, data: { enqueuedAt: new Date() } });
    },
    async findUnenqueued(limit, createdBefore) {
      const rows = await prisma.submission.findMany({
        where: { state: 'queued', enqueuedAt: null, createdAt: { lt: createdBefore } },
        orderBy: { createdAt: 'asc' },
        take: limit,
        select: { id: true },
      });
      return rows.map((row) => row.id);
    },
    async requestCancel(id) {
      await prisma.submission.updateMany({ where: { id, cancelRequestedAt: null }, data: { cancelRequestedAt: new Date() } });
    },
    findByHeadSha: (headSha) => prisma.submission.findMany({ where: { headSha }, omit: OMIT_PATCH }),
    findStale: (states, updatedBefore, limit) =>
      prisma.submission.findMany({
        where: { state: { in: [...states] }, updatedAt: { lt: updatedBefore } },
        orderBy: { updatedAt: 'asc' },
        take: limit,
        omit: OMIT_PATCH,
      }),
    listForRuns: (runIds) =>
      prisma.submission.findMany({ where: { runId: { in: runIds } }, orderBy: { createdAt: 'asc' }, omit: OMIT_PATCH }),
  };
}
