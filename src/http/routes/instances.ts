import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { canReadGroundTruth } from '../../auth/principal.js';
import { importInstanceRows, importInstances } from '../../catalog/import-instances.js';
import { parseOwnerMap } from '../../catalog/owner-map.js';
import { asyncBufferFromBytes, readParquetRows } from '../../catalog/read-parquet.js';
import { ERROR_TYPES, normalizeErrorType } from '../../domain/error-types.js';
import { INSTANCE_HEALTH } from '../../domain/states.js';
import { invalidInput, isAppError, notFound } from '../../errors.js';
import type { AppDeps } from '../app.js';
import { principalOf } from '../auth.js';
import { refuseAnnouncedOversize } from '../body-limit.js';
import { parseInput } from '../validate.js';
import { startRevalidation } from '../../revalidation/service.js';
import { instanceSummaryView, instanceView } from '../views.js';

const importQuery = z.object({
  upstreamOwner: z.string().regex(/^[A-Za-z0-9-]+$/, 'must be a GitHub account name').optional(),
  dataset: z.string().max(100).optional(),
  /** All or nothing: any rejected row refuses the whole import. */
  atomic: z.stringbool().optional(),
  /** Dataset owner → upstream owner per repository, as JSON: {"fork-owner/repo": "upstream-owner", "fork-owner": "upstream-owner"}. */
  ownerMap: z.string().max(64 * 1024).optional(),
});

const idParams = z.object({ id: z.string().min(1).max(200) });
const publicBody = z.object({ public: z.boolean() }).strict();

const listQuery = z.object({
  repo: z.string().regex(/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)?$/, 'must be owner or owner/name').optional(),
  label: z.string().optional(),
  status: z.enum(INSTANCE_HEALTH).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export function instanceRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.post(
    '/v1/instances::import',
    {
      config: { auth: 'operator' },
      schema: {
        tags: ['instances'],
        summary: 'Import instances (CI-Repair-Bench JSONL as application/x-ndjson, a multipart upload of a .jsonl or the released .parquet file, or a JSON array), all or nothing',
        description:
          'Every row is parsed and checked and the body\'s size known before anything is written; the valid rows are then upserted by id in one transaction. Per-row errors (line, id, code, reason; a missing field is `<field> is required`) are reported and the valid rows imported, unless `atomic=true`: ' +
          'then any rejected row refuses the import (422 `rows_rejected`). A body (or uploaded file) over BODY_LIMIT_BYTES is 413 `body_too_large` with nothing imported. ' +
          '`ownerMap` (JSON) maps dataset owners to upstream owners per repository (docs/datasets.md).',
        querystring: z.toJSONSchema(importQuery),
      },
    },
    async (request, reply) => {
      const query = parseInput(importQuery, request.query, 'query');
      const parseOptions = {
        ...(query.upstreamOwner !== undefined ? { upstreamOwner: query.upstreamOwner } : {}),
        ...(query.ownerMap !== undefined ? { ownerMap: parseOwnerMap(query.ownerMap, 'query.ownerMap') } : {}),
        ...(query.dataset !== undefined ? { dataset: query.dataset } : {}),
        ...(query.atomic !== undefined ? { atomic: query.atomic } : {}),
      };
      const limit = deps.config.limits.bodyLimitBytes;
      refuseAnnouncedOversize(request, limit);
      const source = await importSource(request, limit);
      const summary =
        source.kind === 'parquet'
          ? await importInstanceRows(parquetRows(source.bytes, source.filename), deps.repos.instances, parseOptions)
          : await importInstances(source.stream, deps.repos.instances, { ...parseOptions, maxTotalBytes: limit, drainBytes: limit });
      if (summary.created + summary.updated + summary.unchanged === 0 && summary.failed > 0) {
        throw invalidInput('no_valid_rows', `none of the ${summary.failed} rows could be imported; see details.errors`, summary, 422);
      }
      return reply.code(200).send(summary);
    },
  );

  app.get('/v1/instances', { schema: { tags: ['instances'], summary: 'List instances (filters: repo, label, status; cursor pagination); `shaSuccess` only where the ground truth is readable', querystring: z.toJSONSchema(listQuery) } }, async (request) => {
    const query = parseInput(listQuery, request.query, 'query');
    const principal = principalOf(request);
    const label = query.label === undefined ? undefined : normalizeErrorType(query.label);
    if (query.label !== undefined && label === undefined) {
      throw invalidInput('invalid_request', `query.label: "${query.label}" is not one of the 12 error types (${ERROR_TYPES.join(', ')})`);
    }
    const rows = await deps.repos.instances.list({
      limit: query.limit + 1,
      ...(query.repo !== undefined ? { repo: query.repo } : {}),
      ...(label !== undefined ? { label } : {}),
      ...(query.status !== undefined ? { health: query.status } : {}),
      ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return { items: page.map((row) => instanceSummaryView(row, canReadGroundTruth(principal, row) ? 'visible' : 'hidden')), nextCursor: rows.length > query.limit && last !== undefined ? last.id : null };
  });

  app.get(
    '/v1/instances/:id',
    {
      schema: {
        tags: ['instances'],
        summary: 'One instance, with its workflow, ground truth and logs',
        description:
          'The ground truth (`diff`, `changedFiles`, `shaSuccess`, `oracleSha`, `subtasks`) and the stored `logs` are in the answer for operators and for public instances; otherwise they are left out and `groundTruth` is `"hidden"`.',
      },
    },
    async (request) => {
      const { id } = parseInput(idParams, request.params, 'params');
      const instance = await deps.repos.instances.get(id);
      if (instance === null) throw notFound('instance', id);
      return instanceView(instance, canReadGroundTruth(principalOf(request), instance) ? 'visible' : 'hidden');
    },
  );

  app.patch(
    '/v1/instances/:id',
    { config: { auth: 'operator' }, schema: { tags: ['instances'], summary: 'Mark an instance public (its ground truth and stored logs readable by submitters) or not: `{ "public": boolean }`', body: z.toJSONSchema(publicBody) } },
    async (request) => {
      const { id } = parseInput(idParams, request.params, 'params');
      const body = parseInput(publicBody, request.body, 'body');
      const instance = await deps.repos.instances.setPublic(id, body.public);
      if (instance === null) throw notFound('instance', id);
      return instanceView(instance, 'visible');
    },
  );
}

export function revalidationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const params = z.object({ id: z.string().min(1).max(200) });
  const body = z.object({ repeats: z.number().int().min(1).max(10).optional() }).default({});
  app.post('/v1/instances/:id/revalidate', { config: { auth: 'operator' }, schema: { tags: ['instances'], summary: 'Re-validate an instance: replay the unpatched commit (must fail) and the ground truth (must pass) `repeats` times' } }, async (request, reply) => {
    const { id } = parseInput(params, request.params, 'params');
    const { repeats } = parseInput(body, request.body ?? undefined, 'body');
    const config = { ...(deps.config.ciBackend !== undefined ? { ciBackend: deps.config.ciBackend } : {}), ...(deps.config.revalidation !== undefined ? { revalidation: deps.config.revalidation } : {}) };
    const started = await startRevalidation({ repos: deps.repos, submissions: deps.submissions, logger: deps.logger, config }, id, repeats);
    return reply.code(202).send(started);
  });
  app.get('/v1/instances/:id/revalidations', { schema: { tags: ['instances'], summary: 'Re-validations of an instance, newest first' } }, async (request) => {
    const { id } = parseInput(params, request.params, 'params');
    if ((await deps.repos.instances.get(id)) === null) throw notFound('instance', id);
    const rows = await deps.repos.revalidations.listForInstance(id, 50);
    return { items: rows.map((row) => ({ id: row.id, status: row.status, result: row.result, repeats: row.repeats, trigger: row.trigger, submissionIds: row.submissionIds, details: row.details, startedAt: row.startedAt, completedAt: row.completedAt })) };
  });
}

type ImportSource = { kind: 'jsonl'; stream: Readable } | { kind: 'parquet'; bytes: Buffer; filename: string };

const fileTooLarge = (limit: number) =>
  invalidInput('body_too_large', `the uploaded file exceeds ${limit} bytes (BODY_LIMIT_BYTES); nothing was imported: split it into smaller files`, { limitBytes: limit }, 413);

async function importSource(request: FastifyRequest, limit: number): Promise<ImportSource> {
  if (request.isMultipart()) {
    const file = await request.file();
    if (file === undefined) throw invalidInput('missing_file', 'the multipart upload has no file part');
    if (file.filename.endsWith('.parquet')) {
      const bytes = await file.toBuffer().catch((error: unknown) => {
        throw (error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE' ? fileTooLarge(limit) : error;
      });
      if (bytes.subarray(0, 4).toString('latin1') !== 'PAR1') throw invalidInput('invalid_parquet', `${file.filename} is not a Parquet file`, undefined, 422);
      return { kind: 'parquet', bytes, filename: file.filename };
    }
    // The multipart reader cuts a file at the limit and ends its stream quietly: a cut file is refused once read
    // to its end, which is before anything is written.
    const stream = file.file;
    return { kind: 'jsonl', stream: Readable.from((async function* untruncated() {
      for await (const chunk of stream) yield chunk as Buffer;
      if (stream.truncated) throw fileTooLarge(limit);
    })()) };
  }
  const body = request.body;
  if (body instanceof Readable) return { kind: 'jsonl', stream: body };
  if (Array.isArray(body)) return { kind: 'jsonl', stream: Readable.from(body.map((row) => `${JSON.stringify(row)}\n`)) };
  throw invalidInput('invalid_request', 'send JSONL (content-type application/x-ndjson), a multipart file upload, or a JSON array of rows');
}

/** Rows of an uploaded Parquet file; a file the reader cannot decode is the caller's (422), found before any write. */
async function* parquetRows(bytes: Buffer, filename: string): AsyncGenerator<Record<string, unknown>> {
  try {
    yield* readParquetRows(asyncBufferFromBytes(bytes));
  } catch (error) {
    if (isAppError(error)) throw error;
    throw invalidInput('invalid_parquet', `${filename} could not be read as Parquet: ${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'}`, undefined, 422);
  }
}
