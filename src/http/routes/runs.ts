import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { visibleRun } from '../../auth/visibility.js';
import { SUBMISSION_KINDS } from '../../domain/states.js';
import { invalidInput } from '../../errors.js';
import type { AppDeps } from '../app.js';
import { principalOf } from '../auth.js';
import { refuseAnnouncedOversize } from '../body-limit.js';
import { parseInput } from '../validate.js';
import { runView } from '../views.js';

const createRunBody = z.object({
  label: z.string().trim().min(1).max(200),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
const idParams = z.object({ id: z.uuid('must be a run id (UUID)') });
const batchQuery = z.object({
  kind: z.enum(SUBMISSION_KINDS).optional(),
  /** All or nothing: any rejected line refuses the whole batch. */
  atomic: z.stringbool().optional(),
});
const idempotencyHeader = z.object({ 'idempotency-key': z.string().min(1).max(200).optional() });

export function runRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.post('/v1/runs', { schema: { tags: ['runs'], summary: "Create a run (one model's evaluation), owned by the calling token", body: z.toJSONSchema(createRunBody) } }, async (request, reply) => {
    const body = parseInput(createRunBody, request.body, 'body');
    const run = await deps.repos.runs.create({ ...body, ownerTokenId: principalOf(request).tokenId });
    return reply.code(201).send(runView(run, {}, deps.config.publicUrl));
  });

  app.get('/v1/runs/:id', { schema: { tags: ['runs'], summary: "A run with its submission counts by state (another token's run is 404)" } }, async (request) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const run = await visibleRun(deps.repos, principalOf(request), id);
    return runView(run, await deps.repos.runs.countByState(id), deps.config.publicUrl);
  });

  app.post(
    '/v1/runs/:id/submissions',
    {
      schema: {
        tags: ['runs'],
        summary:
          'Submit a batch of patches, all or nothing: JSONL body (application/x-ndjson), one {"instanceId","patch","kind"?} per line; Idempotency-Key header (scoped to the token)',
        description:
          "The run must be the caller's (404 otherwise). Every line is checked and the body's size known before anything is written; the valid rows are then written in one transaction and enqueued after it commits (202). " +
          'Per-line errors are reported and the valid rows kept, unless `atomic=true`: then any rejected line refuses the batch (422 `rows_rejected`). A body over BODY_LIMIT_BYTES is 413 `body_too_large` with nothing written. ' +
          'The same Idempotency-Key and body return the first answer (200) without creating anything; another body is 409 `idempotency_key_reused`. ' +
          "A submitter's `reference`/`revalidation` rows on instances that are not public are rejected per line with `forbidden`.",
        querystring: z.toJSONSchema(batchQuery),
      },
    },
    async (request, reply) => {
      const { id } = parseInput(idParams, request.params, 'params');
      const query = parseInput(batchQuery, request.query, 'query');
      const headers = parseInput(idempotencyHeader, request.headers, 'headers');
      const limit = deps.config.limits.bodyLimitBytes;
      refuseAnnouncedOversize(request, limit);
      const body = request.body;
      let stream: Readable;
      if (body instanceof Readable) stream = body;
      else if (Array.isArray(body)) stream = Readable.from(body.map((row) => `${JSON.stringify(row)}\n`));
      else throw invalidInput('invalid_request', 'send JSONL (content-type application/x-ndjson) or a JSON array of {"instanceId","patch"} objects');
      const { result, created } = await deps.submissions.createBatch(id, stream, {
        ...(query.kind !== undefined ? { kind: query.kind } : {}),
        ...(query.atomic !== undefined ? { atomic: query.atomic } : {}),
        ...(headers['idempotency-key'] !== undefined ? { idempotencyKey: headers['idempotency-key'] } : {}),
        maxTotalBytes: limit,
        drainBytes: limit,
        principal: principalOf(request),
      });
      if (result.accepted === 0) {
        const message = result.rejected === 0 ? 'the batch is empty: send one {"instanceId","patch"} JSON object per line' : `none of the ${result.rejected} rows was accepted; see details.errors`;
        throw invalidInput('no_valid_rows', message, result, 422);
      }
      return reply.code(created ? 202 : 200).send(result);
    },
  );
}
