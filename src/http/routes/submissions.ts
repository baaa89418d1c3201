import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ownerScope } from '../../auth/principal.js';
import { visibleSubmission } from '../../auth/visibility.js';
import { SUBMISSION_STATES } from '../../domain/states.js';
import { submissionInputSchema } from '../../submissions/service.js';
import type { AppDeps } from '../app.js';
import { principalOf } from '../auth.js';
import { parseInput } from '../validate.js';
import { submissionView } from '../views.js';

const idParams = z.object({ id: z.uuid('must be a submission id (UUID)') });
const listQuery = z.object({
  runId: z.uuid().optional(),
  instanceId: z.string().max(200).optional(),
  state: z.enum(SUBMISSION_STATES).optional(),
  cursor: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
const idempotencyHeader = z.object({ 'idempotency-key': z.string().min(1).max(200).optional() });

export function submissionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const base = deps.config.publicUrl;

  app.post(
    '/v1/submissions',
    {
      schema: {
        tags: ['submissions'],
        summary: 'Submit a candidate patch (Idempotency-Key header, scoped to the token: the same key and body return the first submission; a different body is 409)',
        description:
          'The submission belongs to the calling token. A runId the caller does not own is 404. A submitter may create `reference` and `revalidation` submissions only on public instances (403 `forbidden` otherwise).',
        body: z.toJSONSchema(submissionInputSchema, { io: 'input' }),
      },
    },
    async (request, reply) => {
      const headers = parseInput(idempotencyHeader, request.headers, 'headers');
      const body = parseInput(submissionInputSchema, request.body, 'body');
      const result = await deps.submissions.create(body, headers['idempotency-key'], principalOf(request));
      return reply.code(result.created ? 201 : 200).send(submissionView(result.submission, base));
    },
  );

  app.get('/v1/submissions', { schema: { tags: ['submissions'], summary: "List submissions (filters runId, instanceId, state; cursor pagination); a submitter lists only its own", querystring: z.toJSONSchema(listQuery, { io: 'input' }) } }, async (request) => {
    const query = parseInput(listQuery, request.query, 'query');
    const owner = ownerScope(principalOf(request));
    const rows = await deps.repos.submissions.list({
      limit: query.limit + 1,
      ...(owner !== undefined ? { ownerTokenId: owner } : {}),
      ...(query.runId !== undefined ? { runId: query.runId } : {}),
      ...(query.instanceId !== undefined ? { instanceId: query.instanceId } : {}),
      ...(query.state !== undefined ? { state: query.state } : {}),
      ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return { items: page.map((row) => submissionView(row, base)), nextCursor: rows.length > query.limit && last !== undefined ? last.id : null };
  });

  app.get('/v1/submissions/:id', { schema: { tags: ['submissions'], summary: "State, verdict, outcome with its reason and evidence, branch, head SHA, timestamps and links (another token's submission is 404)" } }, async (request) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const submission = await visibleSubmission(deps.repos, principalOf(request), id);
    return submissionView(submission, base);
  });

  app.post('/v1/submissions/:id/cancel', { schema: { tags: ['submissions'], summary: "Cancel a submission that has not finished (another token's submission is 404)" } }, async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const submission = await deps.submissions.cancel(id, principalOf(request));
    return reply.code(202).send(submissionView(submission, base));
  });
}
