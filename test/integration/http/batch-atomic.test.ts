import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { Queue } from 'bullmq';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../../src/auth/tokens.js';
import { createApiHarness, simplePatch, type ApiHarness } from '../../support/api-client.js';
import { rowCounts } from '../../support/row-counts.js';
import { testRedisUrl } from '../../support/test-database.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

/** Small enough that a few hundred lines overflow it, large enough for 250 lines to be read first. */
const LIMIT = 160 * 1024;

const instanceRow = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  id, repo_owner: 'octo', repo_name: 'demo', workflow_path: '.github/workflows/ci.yml', workflow: 'on: push\njobs: {}\n', sha_fail: 'b'.repeat(40), error_type: ['Code Linting'], ...extra,
});
const batchLine = (i: number): string => `${JSON.stringify({ instanceId: 'atomic-1', patch: simplePatch(`src/batch_${i}.py`) })}\n`;
const batchBody = (lines: number, from = 0): string => Array.from({ length: lines }, (_, i) => batchLine(from + i)).join('');

/** A real HTTP exchange (chunked upload, no content-length unless given): what a client actually receives. */
function post(url: string, token: string, contentType: string, chunks: Iterable<string | Buffer>, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    Readable.from(chunks).pipe(req);
  });
}

describe('all-or-nothing batches and imports', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let address: string;
  let redis: Redis;
  let prepare: Queue;
  const newRun = async (token = api.submitter): Promise<string> => (await api.app.inject({ method: 'POST', url: '/v1/runs', headers: api.auth(token), payload: { label: 'atomic' } })).json().id as string;
  const submissionsOf = (runId: string): Promise<number> => env.deps.db.prisma.submission.count({ where: { runId } });
  const queued = async (): Promise<number> => (await prepare.getJobCounts('waiting', 'delayed', 'active', 'completed', 'failed', 'prioritized')).waiting ?? 0;

  beforeAll(async () => {
    env = await createTestEnv({ BODY_LIMIT_BYTES: String(LIMIT), PATCH_MAX_BYTES: String(16 * 1024) });
    api = await createApiHarness(env);
    address = await api.app.listen({ host: '127.0.0.1', port: 0 });
    const imported = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify(instanceRow('atomic-1'))}\n` });
    expect(imported.json()).toMatchObject({ created: 1 });
    redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
    prepare = new Queue('prepare', { connection: redis, prefix: env.config.queuePrefix });
  });
  afterAll(async () => {
    await prepare?.close();
    redis?.disconnect();
    await api?.app.close();
    await env?.cleanup();
  });

  it('answers 413 to a batch over the limit after more than 250 lines, over a real connection, and writes and enqueues nothing', async () => {
    const runId = await newRun();
    const before = await rowCounts(env);
    const jobsBefore = await queued();
    const lines = Array.from({ length: 800 }, (_, i) => batchLine(i));
    expect(lines.slice(0, 300).join('').length).toBeLessThan(LIMIT);
    expect(lines.join('').length).toBeGreaterThan(LIMIT);
    // Chunked upload (no content-length): the limit is found while reading, after 250+ valid lines.
    const chunked = await post(`${address}/v1/runs/${runId}/submissions`, api.submitter, 'application/x-ndjson', lines);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ error: { code: 'body_too_large', details: { limitBytes: LIMIT } } });
    // Announced length over the limit: refused before reading.
    const announced = await api.app.inject({ method: 'POST', url: `/v1/runs/${runId}/submissions`, headers: { ...api.auth(api.submitter), 'content-type': 'application/x-ndjson' }, body: lines.join('') });
    expect(announced.statusCode).toBe(413);
    expect(announced.json().error.code).toBe('body_too_large');
    // A line over its own limit (2 × PATCH_MAX_BYTES + 64 KiB), after 260 good ones, within the body limit.
    const longLine = await api.app.inject({ method: 'POST', url: `/v1/runs/${runId}/submissions`, headers: { ...api.auth(api.submitter), 'content-type': 'application/x-ndjson' }, payload: Readable.from([batchBody(260), `{"instanceId":"atomic-1","patch":"${'x'.repeat(100 * 1024)}"}\n`]) });
    expect(longLine.statusCode).toBe(413);
    expect(longLine.json().error.code).toBe('line_too_large');
    expect(await submissionsOf(runId)).toBe(0);
    expect(await rowCounts(env)).toEqual(before);
    expect(await queued()).toBe(jobsBefore);
    // The connection is still usable for the retry, split into two batches under the limit.
    const first = await post(`${address}/v1/runs/${runId}/submissions`, api.submitter, 'application/x-ndjson', lines.slice(0, 400));
    const second = await post(`${address}/v1/runs/${runId}/submissions`, api.submitter, 'application/x-ndjson', lines.slice(400));
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(await submissionsOf(runId)).toBe(800);
  });

  it('writes a batch in one transaction and enqueues it after the commit', async () => {
    const runId = await newRun();
    const response = await api.app.inject({ method: 'POST', url: `/v1/runs/${runId}/submissions`, headers: { ...api.auth(api.submitter), 'content-type': 'application/x-ndjson' }, payload: Readable.from([batchBody(300)]) });
    expect(response.statusCode).toBe(202);
    const body = response.json();
    expect(body).toMatchObject({ accepted: 300, rejected: 0 });
    const rows = await env.deps.db.prisma.submission.findMany({ where: { runId }, select: { id: true, createdAt: true, enqueuedAt: true } });
    expect(new Set(rows.map((row) => row.id))).toEqual(new Set(body.submissionIds));
    // One transaction: every row carries the same transaction timestamp (now()).
    expect(new Set(rows.map((row) => row.createdAt.getTime())).size).toBe(1);
    expect(rows.every((row) => row.enqueuedAt !== null && row.enqueuedAt >= row.createdAt)).toBe(true);
    expect((await prepare.getJob(`submission-${body.submissionIds[299]}`))?.data).toEqual({ submissionId: body.submissionIds[299] });
  });

  it('returns the first result for a retry with the same Idempotency-Key and body, 409 for another body; keys are per token', async () => {
    const runId = await newRun();
    const headers = { ...api.auth(api.submitter), 'content-type': 'application/x-ndjson', 'idempotency-key': 'batch-retry-1' };
    const body = `${batchBody(260)}not json\n`;
    const first = await api.app.inject({ method: 'POST', url: `/v1/runs/${runId}/submissions`, headers, payload: Readable.from([body]) });
    expect(first.statusCode).toBe(202);
    expect(first.json()).toMatchObject({ accepted: 260, rejected: 1, errors: [{ line: 261, code: 'invalid_json' }] });
    const retry = await api.app.inject({ method: 'POST', url: `/v1/runs/${runId}/submissions`, headers, payload: Readable.from([body]) });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(await submissionsOf(runId)).toBe(260);
    const other = await api.app.inject({ method: 'POST', url: `/v1/runs/${runId}/submissions`, headers, payload: Readable.from([batchBody(260, 1000)]) });
    expect(other.statusCode).toBe(409);
    expect(other.json().error.code).toBe('idempotency_key_reused');
    const otherOptions = await api.app.inject({ method: 'POST', url: `/v1/runs/${runId}/submissions?atomic=true`, headers, payload: Readable.from([body]) });
    expect(otherOptions.statusCode).toBe(409);
    expect(await submissionsOf(runId)).toBe(260);
    // The same key from another token is another batch.
    const other_token = await api.app.inject({ method: 'POST', url: `/v1/runs/${runId}/submissions`, headers: { ...headers, ...api.auth(api.operator) }, payload: Readable.from([body]) });
    expect(other_token.statusCode).toBe(202);
    expect(await submissionsOf(runId)).toBe(520);
    expect(await env.deps.db.prisma.submissionBatch.count({ where: { runId } })).toBe(2);
  });

  it('creates one set of submissions for concurrent batches with the same key', async () => {
    const runId = await newRun();
    const body = batchBody(300);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        post(`${address}/v1/runs/${runId}/submissions`, api.submitter, 'application/x-ndjson', [body.slice(0, 20_000), body.slice(20_000)], { 'idempotency-key': 'batch-concurrent' }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 202]);
    const results = responses.map((response) => JSON.parse(response.body) as { submissionIds: string[] });
    expect(new Set(results.map((result) => result.submissionIds.join()))).toHaveProperty('size', 1);
    expect(await submissionsOf(runId)).toBe(300);
    const jobs = await Promise.all(results[0]!.submissionIds.map((id) => prepare.getJob(`submission-${id}`)));
    expect(jobs.every((job) => job !== undefined)).toBe(true);
  });

  it('keeps valid lines and reports bad ones by default; atomic=true refuses the whole batch and records no key', async () => {
    const runId = await newRun();
    const body = `${batchBody(5)}{"instanceId":"nope","patch":"x"}\n`;
    const before = await rowCounts(env);
    const atomic = await api.app.inject({ method: 'POST', url: `/v1/runs/${runId}/submissions?atomic=true`, headers: { ...api.auth(api.submitter), 'content-type': 'application/x-ndjson', 'idempotency-key': 'atomic-1' }, payload: body });
    expect(atomic.statusCode).toBe(422);
    expect(atomic.json()).toMatchObject({ error: { code: 'rows_rejected', details: { accepted: 0, rejected: 1, errors: [{ line: 6, code: 'unknown_instance' }] } } });
    expect(await rowCounts(env)).toEqual(before);
    // The key was not spent: the corrected batch goes through with it.
    const fixed = await api.app.inject({ method: 'POST', url: `/v1/runs/${runId}/submissions?atomic=true`, headers: { ...api.auth(api.submitter), 'content-type': 'application/x-ndjson', 'idempotency-key': 'atomic-1' }, payload: batchBody(5) });
    expect(fixed.statusCode).toBe(202);
    const lenient = await api.app.inject({ method: 'POST', url: `/v1/runs/${runId}/submissions`, headers: { ...api.auth(api.submitter), 'content-type': 'application/x-ndjson' }, payload: body });
    expect(lenient.statusCode).toBe(202);
    expect(lenient.json()).toMatchObject({ accepted: 5, rejected: 1 });
    expect(await submissionsOf(runId)).toBe(10);
  });

  it('answers 413 to an import over the limit (JSONL, multipart JSONL, Parquet, announced length) and imports nothing', async () => {
    const operator = (await mintToken(env.deps.repos.tokens, { name: 'import-op', role: 'operator' })).token;
    const logs = JSON.stringify([{ step_name: 'test', log: 'x'.repeat(2000) }]);
    const rows = Array.from({ length: 120 }, (_, i) => `${JSON.stringify(instanceRow(`big-${i}`, { logs }))}\n`);
    expect(rows.slice(0, 40).join('').length).toBeLessThan(LIMIT);
    expect(rows.join('').length).toBeGreaterThan(LIMIT);
    const before = await rowCounts(env);

    const jsonl = await post(`${address}/v1/instances:import`, operator, 'application/x-ndjson', rows);
    expect(jsonl.status).toBe(413);
    expect(JSON.parse(jsonl.body).error.code).toBe('body_too_large');

    const boundary = '----atomicimport';
    const part = (filename: string) => Buffer.from([`--${boundary}`, `Content-Disposition: form-data; name="file"; filename="${filename}"`, 'Content-Type: application/octet-stream', '', ''].join('\r\n'));
    const multipart = await post(`${address}/v1/instances:import`, operator, `multipart/form-data; boundary=${boundary}`, [part('rows.jsonl'), ...rows, `\r\n--${boundary}--\r\n`]);
    expect(multipart.status).toBe(413);
    expect(JSON.parse(multipart.body).error.code).toBe('body_too_large');

    const columns = ['id', 'repo_owner', 'repo_name', 'workflow_path', 'workflow', 'sha_fail', 'error_type', 'logs'].map((name) => ({
      name,
      data: Array.from({ length: 120 }, (_, i) => (name === 'id' ? `pq-${i}` : name === 'logs' ? JSON.stringify([{ step_name: 'test', log: randomBytes(1500).toString('hex') }]) : String(instanceRow('x')[name]))),
      type: 'STRING' as const,
    }));
    const parquet = Buffer.from(parquetWriteBuffer({ columnData: columns, codec: 'UNCOMPRESSED' }));
    expect(parquet.length).toBeGreaterThan(LIMIT);
    const upload = await post(`${address}/v1/instances:import`, operator, `multipart/form-data; boundary=${boundary}`, [part('ci_repair_dataset.parquet'), parquet, `\r\n--${boundary}--\r\n`]);
    expect(upload.status).toBe(413);
    expect(JSON.parse(upload.body).error.code).toBe('body_too_large');

    const announced = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(operator), 'content-type': 'application/x-ndjson' }, body: rows.join('') });
    expect(announced.statusCode).toBe(413);
    expect(await rowCounts(env)).toEqual(before);

    // Under the limit the same rows import; atomic=true with one bad row imports none of them.
    const refused = await api.app.inject({ method: 'POST', url: '/v1/instances:import?atomic=true', headers: { ...api.auth(operator), 'content-type': 'application/x-ndjson' }, body: `${rows.slice(0, 30).join('')}{"id":"bad"}\n` });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: { code: 'rows_rejected', details: { failed: 1, created: 0 } } });
    expect(await rowCounts(env)).toEqual(before);
    const imported = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(operator), 'content-type': 'application/x-ndjson' }, body: `${rows.slice(0, 30).join('')}{"id":"bad"}\n` });
    expect(imported.json()).toMatchObject({ created: 30, failed: 1 });
  });
});
