import { createHash, randomUUID, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { scopedIdempotencyKey, type Principal } from '../auth/principal.js';
import { visibleRun } from '../auth/visibility.js';
import type { NewSubmission, Repositories, StoredBatch } from '../db/index.js';
import type { SubmissionKind } from '../domain/states.js';
import { conflict, invalidInput, isAppError } from '../errors.js';
import { DEFAULT_HYGIENE_LIMITS, findInputProblem } from '../util/input-hygiene.js';
import { readLines } from '../util/read-lines.js';
import { createSpool } from '../util/spool.js';
import type { submissionInputSchema } from './service.js';

export interface BatchRowError {
  line: number;
  code: string;
  message: string;
}

export interface BatchResult {
  accepted: number;
  rejected: number;
  submissionIds: string[];
  errors: BatchRowError[];
}

export interface BatchOptions {
  kind?: SubmissionKind;
  /** The body may not exceed this many bytes (413 `body_too_large`, nothing written). */
  maxTotalBytes?: number;
  principal?: Principal;
  /** Scoped to the principal's token: the same key and body return the first batch's result, another body is 409. */
  idempotencyKey?: string;
  /** Any rejected line refuses the whole batch (422 `rows_rejected`, nothing written). */
  atomic?: boolean;
  /** See ReadLinesOptions.drainBytes (an HTTP body). */
  drainBytes?: number;
}

/** `created`: this call wrote the batch; false: the result of the first batch sent with the same key. */
export interface BatchOutcome {
  result: BatchResult;
  created: boolean;
}

export interface BatchDeps {
  repos: Repositories;
  schema: typeof submissionInputSchema;
  patchMaxBytes: number;
  /** Checks one parsed row (instance, access, patch) into the row to insert; throws AppError for a bad row. */
  prepare(input: z.output<typeof submissionInputSchema>, principal: Principal | undefined): Promise<NewSubmission>;
  /** Hands committed submissions to the queue (failures are left to the recovery sweep). */
  enqueue(ids: string[]): Promise<void>;
}

type Row = NewSubmission & { id: string };

const MAX_BATCH_IDS = 100_000;
const MAX_BATCH_ERRORS = 1000;
const ENQUEUE_CHUNK = 1000;

/**
 * A batch of submissions, all or nothing. Every line is read, checked and staged on disk (memory holds one line)
 * and the body's size is known before the first write; then the valid rows (and the Idempotency-Key, when one was
 * sent) are written in one transaction; only after it commits are they enqueued. A body over the limit, a batch
 * with no valid row, or an atomic batch with a rejected row writes nothing, not even its key.
 */
export async function createBatch(deps: BatchDeps, runId: string, stream: Readable, options: BatchOptions = {}): Promise<BatchOutcome> {
  const { repos } = deps;
  await visibleRun(repos, options.principal, runId);
  const key = options.idempotencyKey === undefined ? null : scopedIdempotencyKey(options.principal, options.idempotencyKey);
  const hash = createHash('sha256').update(JSON.stringify([runId, options.kind ?? null, options.atomic === true]));
  const limits = {
    maxLineBytes: deps.patchMaxBytes * 2 + 64 * 1024,
    onChunk: (chunk: Buffer) => hash.update(chunk),
    ...(options.maxTotalBytes !== undefined ? { maxTotalBytes: options.maxTotalBytes } : {}),
    ...(options.drainBytes !== undefined ? { drainBytes: options.drainBytes } : {}),
  };

  const earlier = key === null ? null : await repos.submissionBatches.find(key);
  if (earlier !== null) {
    // A retry: only the body's bytes are needed to tell it from another request under the same key.
    for await (const _line of readLines(stream, limits));
    return replay(earlier, hash, options.idempotencyKey ?? '');
  }

  const result: BatchResult = { accepted: 0, rejected: 0, submissionIds: [], errors: [] };
  const reject = (line: number, code: string, message: string): void => {
    result.rejected += 1;
    if (result.errors.length < MAX_BATCH_ERRORS) result.errors.push({ line, code, message });
  };
  const spool = await createSpool<Row>();
  try {
    for await (const { line, number } of readLines(stream, limits)) {
      if (line.trim() === '') continue;
      const row = await checkLine(deps, line, runId, options, (code, message) => reject(number, code, message));
      if (row === null) continue;
      await spool.write(row);
      if (result.submissionIds.length < MAX_BATCH_IDS) result.submissionIds.push(row.id);
    }
    result.accepted = spool.count;
    if (options.atomic === true && result.rejected > 0) {
      const message = `${result.rejected} of ${result.rejected + spool.count} rows were rejected and the batch asked for all or nothing (atomic=true): nothing was written; see details.errors`;
      throw invalidInput('rows_rejected', message, { ...result, accepted: 0, submissionIds: [] }, 422);
    }
    if (spool.count === 0) return { result, created: false };
    const requestHash = hash.digest('hex');
    const commit = await repos.submissionBatches.commit({ idempotencyKey: key, runId, requestHash, result, rows: spool.chunks() });
    if (!commit.committed) return replay(commit.existing, requestHash, options.idempotencyKey ?? '');
    if (spool.count === result.submissionIds.length) {
      for (let i = 0; i < result.submissionIds.length; i += ENQUEUE_CHUNK) await deps.enqueue(result.submissionIds.slice(i, i + ENQUEUE_CHUNK));
    } else {
      // More ids than the answer lists: read them back from the spool.
      for await (const rows of spool.chunks({ maxRecords: ENQUEUE_CHUNK })) await deps.enqueue(rows.map((row) => row.id));
    }
    return { result, created: true };
  } finally {
    await spool.dispose();
  }
}

/** One line of the batch: the row to insert, or null after reporting why it was rejected. */
async function checkLine(deps: BatchDeps, line: string, runId: string, options: BatchOptions, reject: (code: string, message: string) => void): Promise<Row | null> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    reject('invalid_json', `not valid JSON: ${(error as Error).message}`);
    return null;
  }
  const unclean = findInputProblem(value, 'row', DEFAULT_HYGIENE_LIMITS);
  if (unclean !== null) {
    reject(unclean.code, unclean.message);
    return null;
  }
  const parsed = deps.schema.safeParse({ kind: options.kind, ...(typeof value === 'object' && value !== null ? value : {}), runId });
  if (!parsed.success) {
    reject('invalid_row', parsed.error.issues.map((issue) => `${issue.path.join('.') || 'row'}: ${issue.message}`).join('; '));
    return null;
  }
  try {
    return { id: randomUUID(), ...(await deps.prepare(parsed.data, options.principal)) };
  } catch (error) {
    if (!isAppError(error) || error.kind !== 'invalid_input') throw error;
    reject(error.code, error.message);
    return null;
  }
}

function replay(earlier: StoredBatch, hash: Hash | string, key: string): BatchOutcome {
  const requestHash = typeof hash === 'string' ? hash : hash.digest('hex');
  if (earlier.requestHash !== requestHash) {
    throw conflict('idempotency_key_reused', `Idempotency-Key ${key} was already used for a different batch (another run, options or body)`);
  }
  return { result: earlier.result as BatchResult, created: false };
}
