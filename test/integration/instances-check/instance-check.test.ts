import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { buildDemo, type Demo } from '../../../examples/build-demo.js';
import { checkInstance, type InstanceCheckResult } from '../../../src/instances-check/index.js';
import { runGit } from '../../../src/git/run-git.js';
import { pipelineDeps } from '../../../src/workers.js';
import { createApiHarness, simplePatch, type ApiHarness } from '../../support/api-client.js';
import { appendCommits, createFixtureRepo } from '../../support/git-fixtures.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

const CONTAINER_JOB = ['  test:', '    runs-on: ubuntu-latest', '    container: python:3.12-bookworm', ''].join('\n');

let env: TestEnv;
let api: ApiHarness;
let demo: Demo;
let srv: string;
const sha = { fork: '', gone: '' };

const rowsJsonl = (rows: readonly Record<string, unknown>[]): string => rows.map((row) => JSON.stringify(row)).join('\n') + '\n';

beforeAll(async () => {
  env = await createTestEnv();
  api = await createApiHarness(env);
  demo = await buildDemo(path.join(env.dataDir, 'examples'));
  srv = path.join(env.dataDir, 'srv');
  const upstream = path.join(srv, 'upstream-org', 'calc.git');
  const fork = path.join(srv, 'fork-org', 'calc.git');
  await runGit(['clone', '--quiet', '--mirror', demo.upstreamPath, upstream]);
  await runGit(['clone', '--quiet', '--mirror', demo.upstreamPath, fork]);
  const lint = demo.instances.find((instance) => instance.id === 'demo-lint')!;
  // The fork's own failing commit (on top of the instance's sha_fail, so the ground truth still applies there).
  [sha.fork = ''] = await appendCommits(fork, [{ files: { 'FORK.md': 'a fork-only commit\n' } }], 'fork-fix', String(lint.row.sha_fail));
  sha.gone = (await createFixtureRepo(path.join(env.dataDir, 'elsewhere.git'), [{ files: { 'x.txt': 'x\n' } }])).shas[0] ?? '';
}, 180_000);

afterAll(async () => {
  await api?.app.close();
  await env?.cleanup();
});

describe('instance checks', () => {
  it('imports with an owner map (API), names a missing id with its line, then checks each kind of instance', async () => {
    const lint = demo.instances.find((instance) => instance.id === 'demo-lint')!.row;
    const base = { ...lint, repo_owner: 'upstream-org', upstream_url: path.join(srv, 'upstream-org', 'calc.git') };
    const rows: Record<string, unknown>[] = [
      { ...base, id: 'ok' },
      { ...base, id: 'gone', sha_fail: sha.gone },
      { ...base, id: 'no-apply', diff: simplePatch('src/not_there.py') },
      { ...base, id: 'blocked', workflow: String(lint.workflow).replace('  test:\n    runs-on: ubuntu-latest\n', CONTAINER_JOB) },
      // The dataset names the fork's owner; the owner map sends it to the upstream, the fork stays where commits are looked for last.
      { ...base, id: 'fork', repo_owner: 'fork-org', sha_fail: sha.fork },
      { ...base, id: 'unreachable', repo_name: 'missing', upstream_url: path.join(srv, 'upstream-org', 'missing.git') },
      Object.fromEntries(Object.entries(base).filter(([key]) => key !== 'id')),
    ];
    const ownerMap = encodeURIComponent(JSON.stringify({ 'fork-org/calc': 'upstream-org' }));
    const headers = { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' };
    const refused = await api.app.inject({ method: 'POST', url: `/v1/instances:import?atomic=true&ownerMap=${ownerMap}`, headers, payload: rowsJsonl(rows) });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: { code: 'rows_rejected', details: { failed: 1, errors: [{ line: 7, id: null, code: 'invalid_row', message: 'id is required' }] } } });
    expect((await api.app.inject({ method: 'GET', url: '/v1/instances', headers: api.auth(api.operator) })).json()).toMatchObject({ items: [] });

    const imported = await api.app.inject({ method: 'POST', url: `/v1/instances:import?ownerMap=${ownerMap}`, headers, payload: rowsJsonl(rows) });
    expect(imported.json()).toMatchObject({ created: 6, failed: 1 });
    const forkRow = await env.deps.repos.instances.get('fork');
    expect([forkRow?.repoOwner, forkRow?.sourceRepoOwner]).toEqual(['upstream-org', 'fork-org']);

    const badMap = await api.app.inject({ method: 'POST', url: `/v1/instances:import?ownerMap=${encodeURIComponent('{"a/b/c": 1}')}`, headers, payload: rowsJsonl(rows.slice(0, 1)) });
    expect(badMap.statusCode).toBe(400);
    expect(badMap.json()).toMatchObject({ error: { code: 'invalid_owner_map' } });

    const checked = await api.app.inject({
      method: 'POST', url: '/v1/instances/check', headers: api.auth(api.operator),
      payload: { instanceIds: ['ok', 'gone', 'no-apply', 'blocked', 'fork', 'unreachable'], backend: 'local' },
    });
    expect(checked.statusCode).toBe(200);
    const body = checked.json() as { summary: { total: number; byProblem: Record<string, number>; failed: Record<string, number> }; results: InstanceCheckResult[] };
    const byId = new Map(body.results.map((result) => [result.instanceId, result]));
    expect(body.summary).toMatchObject({ total: 6, byProblem: { ok: 2, broken: 2, unreplayable: 1, unreachable: 1 }, failed: { commits: 1, groundTruth: 1, workflow: 0, preflight: 1 } });

    expect(byId.get('ok')).toMatchObject({ ok: true, problem: 'ok', commits: { shaFail: { found: true, source: 'branch' }, shaSuccess: { found: true } }, groundTruth: { status: 'ok' }, workflow: { status: 'ok' }, preflight: { status: 'ok' } });
    expect(byId.get('gone')).toMatchObject({ problem: 'broken', commits: { shaFail: { found: false } }, groundTruth: { status: 'skipped' } });
    expect(byId.get('gone')?.reasons[0]).toMatch(new RegExp(`^sha_fail ${sha.gone} not found; tried .*a fetch by SHA`));
    expect(byId.get('no-apply')).toMatchObject({ problem: 'broken', groundTruth: { status: 'failed' }, workflow: { status: 'ok' } });
    expect(byId.get('no-apply')?.reasons[0]).toContain('the ground truth does not apply at sha_fail');
    expect(byId.get('blocked')).toMatchObject({ problem: 'unreplayable', preflight: { status: 'failed', blockers: [{ code: 'job_container', job: 'test' }] } });
    expect(byId.get('fork')).toMatchObject({ ok: true, commits: { shaFail: { found: true, source: 'fork' }, shaSuccess: { found: true, source: 'mirror' } } });
    expect(byId.get('fork')?.commits.shaFail.url).toMatch(/\/srv\/fork-org\/calc\.git$/);
    expect(byId.get('unreachable')).toMatchObject({ problem: 'unreachable' });
    expect(byId.get('unreachable')?.reasons[0]).toMatch(/missing\.git failed \(exit 128\): .*does not appear to be a git repository.*command: git clone/);

    // GitHub runs job containers: the same instance is replayable there.
    const github = await checkInstance(await pipelineDeps(env.deps), (await env.deps.repos.instances.get('blocked'))!, { backend: 'github' });
    expect(github).toMatchObject({ ok: true, backend: 'github', preflight: { status: 'ok', blockers: [] } });
  }, 300_000);

  it('refuses a request without exactly one selection, and a submitter', async () => {
    const none = await api.app.inject({ method: 'POST', url: '/v1/instances/check', headers: api.auth(api.operator), payload: {} });
    expect(none.statusCode).toBe(400);
    const two = await api.app.inject({ method: 'POST', url: '/v1/instances/check', headers: api.auth(api.operator), payload: { all: true, repo: 'a/b' } });
    expect(two.statusCode).toBe(400);
    const unknown = await api.app.inject({ method: 'POST', url: '/v1/instances/check', headers: api.auth(api.operator), payload: { instanceIds: ['nope'] } });
    expect(unknown.statusCode).toBe(404);
    const submitter = await api.app.inject({ method: 'POST', url: '/v1/instances/check', headers: api.auth(api.submitter), payload: { all: true } });
    expect(submitter.statusCode).toBe(403);
  });
});
