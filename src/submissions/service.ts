import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { z } from 'zod';
import { canReadGroundTruth, GROUND_TRUTH_KINDS, scopedIdempotencyKey, type Principal } from '../auth/principal.js';
import { visibleRun, visibleSubmission } from '../auth/visibility.js';
import type { NewSubmission, Repositories, SubmissionSummary } from '../db/index.js';
import { TERMINAL_STATES, SUBMISSION_KINDS, type SubmissionState } from '../domain/states.js';
import { conflict, invalidInput, notFound } from '../errors.js';
import { validatePatch } from '../patches/validate-patch.js';
import { jobId, type Queues } from '../queue/index.js';
import { createBatch, type BatchOptions, type BatchOutcome } from './create-batch.js';
import type { CiBackend } from '../backends/ci-backend.js';
import { endAbandoned } from '../pipeline/end-abandoned.js';
import { requeueQueued } from './requeue-queued.js';

export interface SubmissionServiceDeps {
  repos: Repositories;
  queues: Queues;
  logger: Logger;
  patchMaxBytes: number;
  /** LEASE_SECONDS: a queued row whose prepare job finished this long ago without starting it is stuck (see recover). */
  leaseSeconds?: number;
  /** LEASE_MAX_RESUMES: replacements of a stuck queued row's job before it ends infra_error. */
  maxResumes?: number;
  /** Stops what is left of a run nobody runs any more on this host (CiBackend.abandonRun): a cancel of a dead worker's run. */
  abandonRun?: CiBackend['abandonRun'];
  /** Stops a cancelled submission's runs on the CI platform and closes its check run (CiBackend.cancelSubmission, GitHub). */
  cancelSubmission?: CiBackend['cancelSubmission'];
}

export const submissionInputSchema = z.object({
  instanceId: z.string().min(1).max(200),
  patch: z.string().optional(),
  runId: z.uuid().optional(),
  kind: z.enum(SUBMISSION_KINDS).default('candidate'),
});
export type SubmissionInput = z.input<typeof submissionInputSchema>;

export type { BatchOptions, BatchOutcome, BatchResult, BatchRowError } from './create-batch.js';

export interface CreateOptions {
  /** BullMQ priority of the prepare job (1 = highest after unprioritized jobs); re-validation replays use a low one. */
  priority?: number;
}

/**
 * `principal`: the API caller, who owns what it creates and sees only its own runs and submissions (operators see
 * all). Absent for the CLI and the pipeline: their submissions have no owner (operators only) and they see all.
 */
export interface SubmissionService {
  /** The Idempotency-Key is scoped to the principal's token (`cli` without one). */
  create(input: SubmissionInput, idempotencyKey?: string, principal?: Principal, options?: CreateOptions): Promise<{ submission: SubmissionSummary; created: boolean }>;
  /** All or nothing: see create-batch.ts. */
  createBatch(runId: string, lines: Readable, options?: BatchOptions): Promise<BatchOutcome>;
  /**
   * Cancels a submission that has not finished: at once (with what is left of its run killed) unless a live worker
   * runs it, which stops the run itself within 2 s and finalize ends it `cancelled`.
   */
  cancel(id: string, principal?: Principal): Promise<SubmissionSummary>;
  /**
   * Enqueues queued submissions that never reached the queue (Redis was down when they were accepted) or whose job
   * Redis lost (FLUSHALL, a restart without persistence); replaces the job of a queued row it finished without
   * starting (LEASE_SECONDS ago). Returns how many were enqueued.
   */
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

  async function enqueue(ids: string[], priority?: number): Promise<void> {
    if (ids.length === 0) return;
    try {
      await queues.addBulk('prepare', ids.map((id) => ({ payload: { submissionId: id }, options: { jobId: jobId('submission', id), ...(priority !== undefined ? { priority } : {}) } })));
      await repos.submissions.markEnqueued(ids);
    } catch (error) {
      logger.warn({ err: error, count: ids.length }, 'enqueue failed; recovery sweep will retry');
    }
  }

  return {
    async create(raw, idempotencyKey, principal, options = {}) {
      const input = submissionInputSchema.parse(raw);
      if (input.runId !== undefined) await visibleRun(repos, principal, input.runId);
      const row = await prepareRow(input, idempotencyKey === undefined ? null : scopedIdempotencyKey(principal, idempotencyKey), input.runId ?? null, principal);
      const result = await repos.submissions.createIdempotent(row);
      if (!result.created && result.submission.requestHash !== row.requestHash) {
        throw conflict('idempotency_key_reused', `Idempotency-Key ${idempotencyKey ?? ''} was already used for a different request`);
      }
      if (result.created) await enqueue([result.submission.id], options.priority);
      return result;
    },

    createBatch(runId, stream, options = {}) {
      const cache: InstanceCache = new Map();
      const prepare = (input: z.output<typeof submissionInputSchema>, principal: Principal | undefined) => prepareRow(input, null, runId, principal, cache);
      return createBatch({ repos, schema: submissionInputSchema, patchMaxBytes: deps.patchMaxBytes, prepare, enqueue }, runId, stream, options);
    },

    async cancel(id, principal) {
      const submission = await visibleSubmission(repos, principal, id);
      const state = submission.state as SubmissionState;
      if (TERMINAL_STATES.includes(state)) throw conflict('already_finished', `submission ${id} is already ${state}`);
      await repos.submissions.requestCancel(id);
      // A live worker holding the lease stops a running run itself (it polls for the request every 2 s) and finalize
      // ends it cancelled. Otherwise nobody would: the cancel ends it here, with what is left of its run.
      const live = submission.leaseOwner !== null && submission.leaseExpiresAt !== null && submission.leaseExpiresAt.getTime() > Date.now();
      if (!live || state === 'queued' || state === 'preparing') {
        const backend = { ...(deps.abandonRun !== undefined ? { abandonRun: deps.abandonRun } : {}), ...(deps.cancelSubmission !== undefined ? { cancelSubmission: deps.cancelSubmission } : {}) };
        await endAbandoned({ repos, backend }, id, 'cancelled', logger);
      }
      const updated = await repos.submissions.getSummary(id);
      if (updated === null) throw notFound('submission', id);
      return updated;
    },

    async recover(olderThanMs = 5000) {
      const ids = await repos.submissions.findUnenqueued(1000, new Date(Date.now() - olderThanMs));
      if (ids.length > 0) {
        await queues.addBulk('prepare', ids.map((id) => ({ payload: { submissionId: id }, options: { jobId: jobId('submission', id) } })));
        await repos.submissions.markEnqueued(ids);
        logger.info({ count: ids.length }, 'recovered unqueued submissions');
      }
      // Rows enqueued once whose job Redis no longer has (FLUSHALL, a restart without persistence), or whose job ended without starting them.
      const requeued = await requeueQueued(deps, {
        createdBefore: new Date(Date.now() - olderThanMs),
        ...(deps.leaseSeconds !== undefined ? { stuckAfterMs: deps.leaseSeconds * 1000 } : {}),
        ...(deps.maxResumes !== undefined ? { maxResumes: deps.maxResumes } : {}),
      });
      return ids.length + requeued;
    },
  };
}
