import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../support/api-client.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

describe('dataset policy API', () => {
  let env: TestEnv;
  let api: ApiHarness;
  const put = (body: unknown, token = api.operator, name = 'ci-repair-bench') =>
    api.app.inject({ method: 'PUT', url: `/v1/datasets/${name}/policy`, headers: { ...api.auth(token), 'content-type': 'application/json' }, payload: typeof body === 'string' ? body : JSON.stringify(body) });
  const get = (name = 'ci-repair-bench', token = api.operator) => api.app.inject({ url: `/v1/datasets/${name}/policy`, headers: api.auth(token) });

  beforeAll(async () => {
    env = await createTestEnv();
    api = await createApiHarness(env);
    await env.deps.repos.instances.upsert({
      id: 'i1', dataset: 'ci-repair-bench', language: 'Python', repoOwner: 'acme', repoName: 'calc', sourceRepoOwner: null, upstreamUrl: null, headBranch: null,
      workflowName: null, workflowFilename: null, workflowPath: '.github/workflows/ci.yml', workflow: 'on: push\n', shaFail: 'a'.repeat(40), shaSuccess: null, diff: '',
      changedFiles: [], commitDate: null, logs: [], labels: [], rawLabels: [], protectedPaths: [], oracleSha: null, subtasks: null, basePassingTests: [],
      pythonVersion: null, installCommand: null, contentHash: 'x', metadata: {},
    });
  });
  afterAll(async () => {
    await api.app.close();
    await env.cleanup();
  });

  it('an operator reads the default (ground-truth) of a dataset with no stored policy; an unknown dataset is 404', async () => {
    const response = await get();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ dataset: 'ci-repair-bench', protection: 'ground-truth', protectedPaths: [], source: 'default' });
    const unknown = await get('no-such-dataset');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: { code: 'not_found', message: 'dataset no-such-dataset does not exist' } });
  });

  it('an operator sets the policy; absent fields keep their value; the stored row is what the pipeline reads', async () => {
    const set = await put({ protection: 'paths', protectedPaths: ['tests/**', ' conftest.py'] });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ dataset: 'ci-repair-bench', protection: 'paths', protectedPaths: ['tests/**', 'conftest.py'], source: 'stored' });
    const partial = await put({ protection: 'off' });
    expect(partial.json()).toEqual({ dataset: 'ci-repair-bench', protection: 'off', protectedPaths: ['tests/**', 'conftest.py'], source: 'stored' });
    expect((await get()).json()).toMatchObject({ protection: 'off', source: 'stored' });
    expect(await env.deps.repos.datasetPolicies.get('ci-repair-bench')).toMatchObject({ protection: 'off', protectedPaths: ['tests/**', 'conftest.py'] });
    const ahead = await put({ protection: 'ground-truth' }, api.operator, 'imported-later');
    expect(ahead.statusCode).toBe(200);
    expect((await get('imported-later')).json()).toMatchObject({ dataset: 'imported-later', source: 'stored' });
  });

  it('a submitter gets 403 on both methods and changes nothing', async () => {
    const before = (await get()).json();
    const read = await get('ci-repair-bench', api.submitter);
    expect(read.statusCode).toBe(403);
    expect(read.json().error.code).toBe('forbidden');
    const write = await put({ protection: 'off' }, api.submitter);
    expect(write.statusCode).toBe(403);
    expect((await get()).json()).toEqual(before);
  });

  it('bad input: an unknown protection, wrong types, unknown fields, an empty body or bad JSON are 400; unsafe globs are 422', async () => {
    const cases: [unknown, string][] = [
      [{ protection: 'strict' }, 'invalid_request'], [{ protectedPaths: 'tests/**' }, 'invalid_request'], [{ protection: 'off', extra: 1 }, 'invalid_request'],
      [{}, 'invalid_request'], ['{"protection":', 'invalid_json'],
    ];
    for (const [body, code] of cases) {
      const response = await put(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code, JSON.stringify(body)).toBe(code);
    }
    for (const glob of ['/etc/**', '../outside/**', '.git/hooks/*', 'src/[x.py']) {
      const response = await put({ protectedPaths: [glob] });
      expect(response.statusCode, glob).toBe(422);
      expect(response.json()).toMatchObject({ error: { code: 'invalid_protected_path', message: expect.stringContaining(JSON.stringify(glob)) } });
    }
    expect((await get()).json()).toMatchObject({ protection: 'off', protectedPaths: ['tests/**', 'conftest.py'] });
  });

  it('is documented in the OpenAPI document', async () => {
    const document = (await api.app.inject({ url: '/openapi.json' })).json();
    expect(Object.keys(document.paths['/v1/datasets/{name}/policy'] ?? {}).sort()).toEqual(['get', 'put']);
  });
});
