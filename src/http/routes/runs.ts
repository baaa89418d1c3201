import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { visibleRun } from '../../auth/visibility.js';
import { SUBMISSION_KINDS } from '../../domain/states.js';
import { invalidInput } from '../../errors.js';
import type { AppDeps } from '../app.js';
import { principalOf } from '../auth.js';
import { parseInput } from '../validate.js';
import { runView } from '../views.js';

const createRunBody = z.object({
  label: z.string().trim().min(1).max(200),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
const idParams = z.object({ id: z.uuid('must be a run id (UUID)') });
const batchQuery = z.object({ kind: z.enum(SUBMISSION_KINDS).optional() });

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
        summary: 'Submit a batch of patches: JSONL body (application/x-ndjson), one {"instanceId","patch","kind"?} per line; streamed into the database in chunks',
        description: "The run must be the caller's (404 otherwise). A submitter's `reference`/`revalidation` rows on instances that are not public are rejected per line with `forbidden`.",
        querystring: z.toJSONSchema(batchQuery),
      },
    },
    async (request, reply) => {
      const { id } = parseInput(idParams, request.params, 'params');
      const query = parseInput(batchQuery, request.query, 'query');
      const body = request.body;
      let stream: Readable;
      if (body instanceof Readable) stream = body;
      else if (Array.isArray(body)) stream = Readable.from(body.map((row) => `${JSON.stringify(row)}\n`));
      else throw invalidInput('invalid_request', 'send JSONL (content-type application/x-ndjson) or a JSON array of {"instanceId","patch"} objects');
      const result = await deps.submissions.createBatch(id, stream, {
        ...(query.kind !== undefined ? { kind: query.kind } : {}),
        maxTotalBytes: deps.config.limits.bodyLimitBytes,
        principal: principalOf(request),
      });
      if (result.accepted === 0) {
        const message = result.rejected === 0 ? 'the batch is empty: send one {"instanceId","patch"} JSON object per line' : `none of the ${result.rejected} rows was accepted; see details.errors`;
        throw invalidInput('no_valid_rows', message, result, 422);
      }
      return reply.code(202).send(result);
    },
  );
}
