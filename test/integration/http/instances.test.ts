import { readFile } from 'node:fs/promises';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../support/api-client.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

const fixture = new URL('../../fixtures/instances/ci-repair-bench-sample.jsonl', import.meta.url);

describe('instance catalog', () => {
  let env: TestEnv;
  let api: ApiHarness;
  beforeAll(async () => {
    env = await createTestEnv();
    api = await createApiHarness(env);
  });
  afterAll(async () => {
    await api.app.close();
    await env.cleanup();
  });

  it('imports a CI-Repair-Bench JSONL file, reports malformed rows, and round-trips every field', async () => {
    const body = await readFile(fixture, 'utf8');
    const response = await api.app.inject({ method: 'POST', url: '/v1/instances:import?upstreamOwner=octo', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body });
    expect(response.statusCode).toBe(200);
    const summary = response.json();
    expect(summary).toMatchObject({ created: 5, updated: 0, unchanged: 0, failed: 4 });
    expect(summary.errors.map((error: { line: number; code: string }) => [error.line, error.code])).toEqual([
      [3, 'invalid_json'],
      [7, 'invalid_row'],
      [8, 'unknown_label'],
      [9, 'invalid_row'],
    ]);
    expect(summary.errors[1].message).toContain('sha_fail');
    expect(summary.errors[3].message).toContain('workflow');

    const source = body.split('\n').filter(Boolean).map((line) => { try { return JSON.parse(line); } catch { return null; } });
    const three = (await api.app.inject({ url: '/v1/instances/3', headers: api.auth(api.operator) })).json();
    const raw3 = source.find((row) => row?.id === 3);
    expect(three).toMatchObject({
      id: '3',
      repo: 'octo/gadgets',
      sourceRepoOwner: 'someone-fork',
      shaFail: raw3.sha_fail,
      shaSuccess: raw3.sha_success,
      workflow: raw3.workflow,
      diff: raw3.diff,
      changedFiles: ['setup.py', 'requirements.txt'],
      logs: JSON.parse(raw3.logs),
      labels: ['Code Linting', 'Dependency Issues', 'Package Installation Error'],
      rawLabels: ['Linting', 'Import Error', 'Pkg. Install Error'],
      commitDate: '2024-03-01T09:58:00.000Z',
      workflowPath: '.github/workflows/ci.yml',
      headBranch: 'main',
    });
    const four = (await api.app.inject({ url: '/v1/instances/4', headers: api.auth(api.submitter) })).json();
    expect(four.labels).toEqual(['Type Checking', 'Doc/Docstring', 'Configuration Error', 'Environment Error', 'Code Linting']);
  });

  it('re-import is idempotent by instance id and updates changed rows', async () => {
    const body = await readFile(fixture, 'utf8');
    const again = await api.app.inject({ method: 'POST', url: '/v1/instances:import?upstreamOwner=octo', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body });
    expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 5, failed: 4 });
    const changed = body.replace('"id": 1, "language": "Python"', '"id": 1, "language": "Python3"');
    const third = await api.app.inject({ method: 'POST', url: '/v1/instances:import?upstreamOwner=octo', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: changed });
    expect(third.json()).toMatchObject({ created: 0, updated: 1, unchanged: 4 });
  });

  it('accepts a multipart file upload', async () => {
    const row = (await readFile(fixture, 'utf8')).split('\n')[0]!.replace('"id": 1,', '"id": "upload-1",');
    const boundary = '----cireplay';
    const body = [`--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="rows.jsonl"', 'Content-Type: application/octet-stream', '', row, `--${boundary}--`, ''].join('\r\n');
    const response = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ created: 1, failed: 0 });
  });

  it('imports the released Parquet layout from a multipart upload, and refuses a file that is not Parquet', async () => {
    const rows = (await readFile(fixture, 'utf8')).split('\n').filter(Boolean).flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    }).filter((row) => row.id === 1 || row.id === 2);
    const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
    const columns = ['repo_owner', 'repo_name', 'head_branch', 'workflow_name', 'workflow_filename', 'workflow_path', 'workflow', 'sha_fail', 'sha_success', 'diff', 'commit_date', 'changed_files', 'logs', 'error_type'];
    const bytes = parquetWriteBuffer({
      columnData: [
        { name: 'id', data: rows.map((row) => BigInt(Number(row.id) + 1000)), type: 'INT64' },
        ...columns.map((name) => ({ name, data: rows.map((row) => asText(row[name])), type: 'STRING' as const })),
      ],
    });
    const boundary = '----cireplayparquet';
    const head = Buffer.from([`--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="ci_repair_dataset.parquet"', 'Content-Type: application/octet-stream', '', ''].join('\r\n'));
    const body = Buffer.concat([head, Buffer.from(bytes), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const response = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ created: 2, failed: 0 });
    const imported = (await api.app.inject({ url: '/v1/instances/1002', headers: api.auth(api.operator) })).json();
    expect(imported).toMatchObject({ id: '1002', labels: ['Test Failure', 'Assertion Error'], shaFail: rows[1]!.sha_fail, workflow: rows[1]!.workflow });
    expect(imported.logs).toEqual(rows[1]!.logs);
    const fake = Buffer.concat([Buffer.from([`--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="x.parquet"', '', 'not parquet'].join('\r\n')), Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const refused = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': `multipart/form-data; boundary=${boundary}` }, body: fake });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('invalid_parquet');
  });

  it('lists with filters and cursor pagination', async () => {
    const all = (await api.app.inject({ url: '/v1/instances?limit=2', headers: api.auth(api.submitter) })).json();
    expect(all.items).toHaveLength(2);
    expect(all.nextCursor).toBe(all.items[1].id);
    const next = (await api.app.inject({ url: `/v1/instances?limit=2&cursor=${all.nextCursor}`, headers: api.auth(api.submitter) })).json();
    expect(next.items[0].id > all.items[1].id).toBe(true);
    const byRepo = (await api.app.inject({ url: '/v1/instances?repo=octo/gadgets', headers: api.auth(api.submitter) })).json();
    expect(byRepo.items.map((item: { id: string }) => item.id).sort()).toEqual(['3', '4']);
    const byLabel = (await api.app.inject({ url: '/v1/instances?label=Assertion%20Error', headers: api.auth(api.submitter) })).json();
    expect(byLabel.items.map((item: { id: string }) => item.id)).toEqual(['1002', '2']);
    const alias = (await api.app.inject({ url: '/v1/instances?label=Linting', headers: api.auth(api.submitter) })).json();
    expect(alias.items.map((item: { id: string }) => item.id).sort()).toEqual(['1', '1001', '3', '4', 'upload-1']);
    const bad = await api.app.inject({ url: '/v1/instances?label=Nope', headers: api.auth(api.submitter) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('invalid_request');
  });

  it('only operators import', async () => {
    const response = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.submitter), 'content-type': 'application/x-ndjson' }, body: '{}' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: { code: 'forbidden', message: 'this operation needs an operator token' } });
    const missing = await api.app.inject({ url: '/v1/instances/1' });
    expect(missing.statusCode).toBe(401);
    expect((await api.app.inject({ url: '/v1/instances/nope', headers: api.auth(api.submitter) })).statusCode).toBe(404);
  });
});
