import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { z } from 'zod';
import { canReadGroundTruth, GROUND_TRUTH_KINDS, scopedIdempotencyKey, type Principal } from '../auth/principal.js';
import { visibleRun, visibleSubmission } from '../auth/visibility.js';
import type { NewSubmission, Repositories, SubmissionSummary } from '../db/index.js';
import { TERMINAL_STATES, SUBMISSION_KINDS, type SubmissionKind, type SubmissionState } from '../domain/states.js';
import { conflict, invalidInput, isAppError, notFound } from '../errors.js';
import { validatePatch } from '../patches/validate-patch.js';
import { jobId, type Queues } from '../queue/index.js';
import { readLines } from '../util/read-lines.js';
import { DEFAULT_HYGIENE_LIMITS, findInputProblem } from '../util/input-hygiene.js';

export interface SubmissionServiceDeps {
  repos: Repositories;
  queues: Queues;
  logger: Logger;
  patchMaxBytes: number;
}

export const submissionInputSchema = z.object({
  instanceId: z.string().min(1).max(200),
  patch: z.string().optional(),
  runId: z.uuid().optional(),
  kind: z.enum(SUBMISSION_KINDS).default('candidate'),
});
export type SubmissionInput = z.input<typeof submissionInputSchema>;

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

const BATCH_CHUNK = 250;
const MAX_BATCH_IDS = 100_000;
const MAX_BATCH_ERRORS = 1000;

/**
 * `principal`: the API caller, who owns what it creates and sees only its own runs and submissions (operators see
 * all). Absent for the CLI and the pipeline: their submissions have no owner (operators only) and they see all.
 */
export interface SubmissionService {
  /** The Idempotency-Key is scoped to the principal's token (`cli` without one). */
  create(input: SubmissionInput, idempotencyKey?: string, principal?: Principal): Promise<{ submission: SubmissionSummary; created: boolean }>;
  createBatch(runId: string, lines: Readable, defaults?: { kind?: SubmissionKind; maxTotalBytes?: number; principal?: Principal }): Promise<BatchResult>;
  cancel(id: string, principal?: Principal): Promise<SubmissionSummary>;
  /** Enqueues queued submissions that never reached the queue (Redis was down when they were accepted). */
  recover(olderThanMs?: number): Promise<number>;
}

export function createSubmissionService(deps: SubmissionServiceDeps): SubmissionService {
  const { repos, queues, logger } = deps;
  type InstanceCache = Map<string, { diff: string; public: boolean } | null>;

  /** Looks an instance up, memoised for the duration of one request (a batch names the same instances often). */
  async function instanceFor(id: string, cache: InstanceCache): Promise<{ diff: string; public: boolean } | null> {
    const cached = cache.get(id);
    if (cached !== undefined) return cached;
    const row = await repos.instances.get(id);
    const value = row === null ? null : { diff: row.diff, public: row.public };
    if (cache.size > 10_000) cache.clear();
    cache.set(id, value);
    return value;
  }

  async function prepareRow(
    input: z.output<typeof submissionInputSchema>,
    idempotencyKey: string | null,
    runId: string | null,
    principal: Principal | undefined,
    cache: InstanceCache = new Map(),
  ): Promise<NewSubmission> {
    const instance = await instanceFor(input.instanceId, cache);
    if (instance === null) throw invalidInput('unknown_instance', `instance ${input.instanceId} does not exist; import it first (POST /v1/instances:import)`, undefined, 422);
    if (GROUND_TRUTH_KINDS.includes(input.kind) && !canReadGroundTruth(principal, instance)) {
      throw invalidInput('forbidden', `a ${input.kind} submission replays the ground truth of instance ${input.instanceId}, which is not public: it needs an operator token`, undefined, 403);
    }
    let patch = input.patch ?? '';
    if (input.kind === 'baseline') {
      if (patch !== '') throw invalidInput('patch_not_allowed', 'a baseline submission runs the unpatched commit: omit "patch"', undefined, 422);
    } else if (input.kind === 'reference' && patch === '') {
      patch = instance.diff;
      if (patch === '') throw invalidInput('no_ground_truth', `instance ${input.instanceId} has no ground-truth patch`, undefined, 422);
    } else {
      validatePatch(patch, deps.patchMaxBytes);
    }
    const patchSha256 = createHash('sha256').update(patch).digest('hex');
    const requestHash = createHash('sha256').update(JSON.stringify([input.instanceId, runId, input.kind, patchSha256])).digest('hex');
    return { instanceId: input.instanceId, runId, kind: input.kind, patch, patchSha256, idempotencyKey, requestHash, ownerTokenId: principal?.tokenId ?? null };
  }

  async function enqueue(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      await queues.addBulk('prepare', ids.map((id) => ({ payload: { submissionId: id }, options: { jobId: jobId('submission', id) } })));
      await repos.submissions.markEnqueued(ids);
    } catch (error) {
      logger.warn({ err: error, count: ids.length }, 'enqueue failed; recovery sweep will retry');
    }
  }

  return {
    async create(raw, idempotencyKey, principal) {
      const input = submissionInputSchema.parse(raw);
      if (input.runId !== undefined) await visibleRun(repos, principal, input.runId);
      const row = await prepareRow(input, idempotencyKey === undefined ? null : scopedIdempotencyKey(principal, idempotencyKey), input.runId ?? null, principal);
      const result = await repos.submissions.createIdempotent(row);
      if (!result.created && result.submission.requestHash !== row.requestHash) {
        throw conflict('idempotency_key_reused', `Idempotency-Key ${idempotencyKey ?? ''} was already used for a different request`);
      }
      if (result.created) await enqueue([result.submission.id]);
      return result;
    },

    async createBatch(runId, stream, defaults = {}) {
      await visibleRun(repos, defaults.principal, runId);
      const result: BatchResult = { accepted: 0, rejected: 0, submissionIds: [], errors: [] };
      const cache: InstanceCache = new Map();
      let chunk: NewSubmission[] = [];
      const flush = async (): Promise<void> => {
        if (chunk.length === 0) return;
        const ids = await repos.submissions.createMany(chunk);
        result.accepted += ids.length;
        if (result.submissionIds.length < MAX_BATCH_IDS) result.submissionIds.push(...ids.slice(0, MAX_BATCH_IDS - result.submissionIds.length));
        chunk = [];
        await enqueue(ids);
      };
      const reject = (line: number, code: string, message: string): void => {
        result.rejected += 1;
        if (result.errors.length < MAX_BATCH_ERRORS) result.errors.push({ line, code, message });
      };
      const limits = { maxLineBytes: deps.patchMaxBytes * 2 + 64 * 1024, ...(defaults.maxTotalBytes !== undefined ? { maxTotalBytes: defaults.maxTotalBytes } : {}) };
      for await (const { line, number: lineNumber } of readLines(stream, limits)) {
        if (line.trim() === '') continue;
        let value: unknown;
        try {
          value = JSON.parse(line);
        } catch (error) {
          reject(lineNumber, 'invalid_json', `not valid JSON: ${(error as Error).message}`);
          continue;
        }
        const unclean = findInputProblem(value, 'row', DEFAULT_HYGIENE_LIMITS);
        if (unclean !== null) {
          reject(lineNumber, unclean.code, unclean.message);
          continue;
        }
        const parsed = submissionInputSchema.safeParse({ kind: defaults.kind, ...(typeof value === 'object' && value !== null ? value : {}), runId });
        if (!parsed.success) {
          reject(lineNumber, 'invalid_row', parsed.error.issues.map((issue) => `${issue.path.join('.') || 'row'}: ${issue.message}`).join('; '));
          continue;
        }
        try {
          chunk.push(await prepareRow(parsed.data, null, runId, defaults.principal, cache));
        } catch (error) {
          if (!isAppError(error)) throw error;
          reject(lineNumber, error.code, error.message);
          continue;
        }
        if (chunk.length >= BATCH_CHUNK) await flush();
      }
      await flush();
      return result;
    },

    async cancel(id, principal) {
      const submission = await visibleSubmission(repos, principal, id);
      const state = submission.state as SubmissionState;
      if (TERMINAL_STATES.includes(state)) throw conflict('already_finished', `submission ${id} is already ${state}`);
      await repos.submissions.requestCancel(id);
      if (state === 'queued' || state === 'preparing') {
        await repos.submissions.transition(id, ['queued', 'preparing'], 'cancelled', { completedAt: new Date(), verdict: 'invalid', reason: 'cancelled' });
      }
      const updated = await repos.submissions.getSummary(id);
      if (updated === null) throw notFound('submission', id);
      return updated;
    },

    async recover(olderThanMs = 5000) {
      const ids = await repos.submissions.findUnenqueued(1000, new Date(Date.now() - olderThanMs));
      if (ids.length === 0) return 0;
      await queues.addBulk('prepare', ids.map((id) => ({ payload: { submissionId: id }, options: { jobId: jobId('submission', id) } })));
      await repos.submissions.markEnqueued(ids);
      logger.info({ count: ids.length }, 'recovered unqueued submissions');
      return ids.length;
    },
  };
}
