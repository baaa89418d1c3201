import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SUBMISSION_STATES } from '../../domain/states.js';
import { notFound } from '../../errors.js';
import { submissionInputSchema } from '../../submissions/service.js';
import type { AppDeps } from '../app.js';
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
        summary: 'Submit a candidate patch (Idempotency-Key header: the same key and body return the first submission; a different body is 409)',
        body: z.toJSONSchema(submissionInputSchema, { io: 'input' }),
      },
    },
    async (request, reply) => {
      const headers = parseInput(idempotencyHeader, request.headers, 'headers');
      const body = parseInput(submissionInputSchema, request.body, 'body');
      const result = await deps.submissions.create(body, headers['idempotency-key']);
      return reply.code(result.created ? 201 : 200).send(submissionView(result.submission, base));
    },
  );

  app.get('/v1/submissions', { schema: { tags: ['submissions'], summary: 'List submissions (filters runId, instanceId, state; cursor pagination)', querystring: z.toJSONSchema(listQuery, { io: 'input' }) } }, async (request) => {
    const query = parseInput(listQuery, request.query, 'query');
    const rows = await deps.repos.submissions.list({
      limit: query.limit + 1,
      ...(query.runId !== undefined ? { runId: query.runId } : {}),
      ...(query.instanceId !== undefined ? { instanceId: query.instanceId } : {}),
      ...(query.state !== undefined ? { state: query.state } : {}),
      ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return { items: page.map((row) => submissionView(row, base)), nextCursor: rows.length > query.limit && last !== undefined ? last.id : null };
  });

  app.get('/v1/submissions/:id', { schema: { tags: ['submissions'], summary: 'State, verdict, branch, head SHA, timestamps and links' } }, async (request) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const submission = await deps.repos.submissions.getSummary(id);
    if (submission === null) throw notFound('submission', id);
    return submissionView(submission, base);
  });

  app.post('/v1/submissions/:id/cancel', { schema: { tags: ['submissions'], summary: 'Cancel a submission that has not finished' } }, async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const submission = await deps.submissions.cancel(id);
    return reply.code(202).send(submissionView(submission, base));
  });
}
