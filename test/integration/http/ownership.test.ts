import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../../src/auth/tokens.js';
import { rerunDeliveryHook } from '../../../src/backends/github/rerun-hook.js';
import { RERUN_ACTION } from '../../../src/backends/github/check-run.js';
import { pipelineDeps } from '../../../src/workers.js';
import { createApiHarness, simplePatch, type ApiHarness } from '../../support/api-client.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

const fixture = new URL('../../fixtures/instances/ci-repair-bench-sample.jsonl', import.meta.url);

/** Two submitters (A, B) and an operator: each submitter sees only what its token created; operators see all. */
describe('ownership: a submitter sees, lists and cancels only its own resources', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let tokenA: { id: string; token: string };
  let tokenB: { id: string; token: string };
  let runA: string;
  let runB: string;
  const ownA: string[] = [];
  const ownB: string[] = [];
  let cliSubmission: string;

  const as = (token: string) => api.auth(token);
  const post = (token: string, url: string, payload: unknown, headers: Record<string, string> = {}) => api.app.inject({ method: 'POST', url, headers: { ...as(token), ...headers }, payload: payload as object });
  const get = (token: string, url: string) => api.app.inject({ url, headers: as(token) });

  beforeAll(async () => {
    env = await createTestEnv();
    api = await createApiHarness(env);
    await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...as(api.operator), 'content-type': 'application/x-ndjson' }, body: await readFile(fixture, 'utf8') });
    tokenA = await mintToken(env.deps.repos.tokens, { name: 'submitter-a', role: 'submitter' });
    tokenB = await mintToken(env.deps.repos.tokens, { name: 'submitter-b', role: 'submitter' });
    runA = (await post(tokenA.token, '/v1/runs', { label: 'model-a' })).json().id;
    runB = (await post(tokenB.token, '/v1/runs', { label: 'model-b' })).json().id;
    for (let i = 0; i < 3; i += 1) ownA.push((await post(tokenA.token, '/v1/submissions', { instanceId: '1', runId: runA, patch: simplePatch(`src/a${i}.py`) })).json().id);
    for (let i = 0; i < 5; i += 1) ownB.push((await post(tokenB.token, '/v1/submissions', { instanceId: '2', runId: runB, patch: simplePatch(`src/b${i}.py`) })).json().id);
    cliSubmission = (await env.deps.submissions.create({ instanceId: '1', patch: simplePatch('src/cli.py') })).submission.id;
  });
  afterAll(async () => {
    await api.app.close();
    await env.cleanup();
  });

  it('stores the owner of runs and submissions; the CLI leaves it null', async () => {
    expect((await env.deps.repos.runs.get(runA))?.ownerTokenId).toBe(tokenA.id);
    expect((await env.deps.repos.submissions.getSummary(ownB[0]!))?.ownerTokenId).toBe(tokenB.id);
    expect((await env.deps.repos.submissions.getSummary(cliSubmission))?.ownerTokenId).toBeNull();
  });

  it("answers 404 not_found for another token's submission, exactly as for one that does not exist; the owner and the operator read it", async () => {
    const theirs = ownB[0]!;
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const suffix of ['', '/jobs', '/logs/segments?budget=500']) {
      const response = await get(tokenA.token, `/v1/submissions/${theirs}${suffix}`);
      expect(response.statusCode, suffix).toBe(404);
      const absent = (await get(tokenA.token, `/v1/submissions/${missing}${suffix}`)).json();
      expect(response.json(), suffix).toEqual({ error: { ...absent.error, message: absent.error.message.replace(missing, theirs) } });
      expect(response.json().error.code).toBe('not_found');
      expect((await get(tokenB.token, `/v1/submissions/${theirs}${suffix}`)).statusCode, suffix).toBe(200);
      expect((await get(api.operator, `/v1/submissions/${theirs}${suffix}`)).statusCode, suffix).toBe(200);
    }
    const cancel = await post(tokenA.token, `/v1/submissions/${theirs}/cancel`, {});
    expect(cancel.statusCode).toBe(404);
    expect(cancel.json().error.code).toBe('not_found');
    const untouched = await env.deps.repos.submissions.getSummary(theirs);
    expect(untouched).toMatchObject({ state: 'queued', cancelRequestedAt: null });
    const subtasks = await post(tokenA.token, `/v1/submissions/${theirs}/subtasks`, {});
    expect(subtasks.statusCode).toBe(404);
    expect(subtasks.json().error.code).toBe('not_found');
  });

  it("a submitter cancels its own submission; the operator cancels anyone's", async () => {
    expect((await post(tokenB.token, `/v1/submissions/${ownB[4]!}/cancel`, {})).statusCode).toBe(202);
    const byOperator = await post(api.operator, `/v1/submissions/${ownA[2]!}/cancel`, {});
    expect(byOperator.statusCode).toBe(202);
    expect(byOperator.json()).toMatchObject({ state: 'cancelled' });
  });

  it('records created by the CLI (no owner) are visible to operators only', async () => {
    expect((await get(tokenA.token, `/v1/submissions/${cliSubmission}`)).statusCode).toBe(404);
    expect((await get(api.submitter, `/v1/submissions/${cliSubmission}`)).statusCode).toBe(404);
    expect((await get(api.operator, `/v1/submissions/${cliSubmission}`)).statusCode).toBe(200);
    const cliRun = await env.deps.repos.runs.create({ label: 'cli', metadata: {} });
    expect((await get(tokenA.token, `/v1/runs/${cliRun.id}`)).statusCode).toBe(404);
    expect((await get(api.operator, `/v1/runs/${cliRun.id}`)).statusCode).toBe(200);
  });

  it("lists only the caller's own submissions, filtered in the query so every page is full", async () => {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = (await get(tokenA.token, `/v1/submissions?limit=1${cursor === null ? '' : `&cursor=${cursor}`}`)).json();
      pages.push(page.items.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor !== null && pages.length < 20);
    // Filtering after pagination would leave empty pages (other tokens' rows sort in between) or a cursor past the end.
    expect(pages.map((page) => page.length)).toEqual([1, 1, 1]);
    expect(pages.flat().sort()).toEqual([...ownA].sort());

    const paged = (await get(tokenB.token, '/v1/submissions?limit=2')).json();
    expect(paged.items).toHaveLength(2);
    expect(paged.nextCursor).toBe(paged.items[1].id);
    const rest = (await get(tokenB.token, `/v1/submissions?limit=10&cursor=${paged.nextCursor}`)).json();
    expect([...paged.items, ...rest.items].map((item: { id: string }) => item.id).sort()).toEqual([...ownB].sort());
    expect(rest.nextCursor).toBeNull();

    // Another token's run as a filter: nothing, not a hint that it exists.
    expect((await get(tokenA.token, `/v1/submissions?runId=${runB}`)).json()).toEqual({ items: [], nextCursor: null });
    const all = (await get(api.operator, '/v1/submissions?limit=500')).json().items.map((item: { id: string }) => item.id);
    expect(all).toEqual(expect.arrayContaining([...ownA, ...ownB, cliSubmission]));
  });

  it("another token's run is 404 for reading, reporting, comparing and submitting into it", async () => {
    expect((await get(tokenA.token, `/v1/runs/${runB}`)).statusCode).toBe(404);
    expect((await get(tokenB.token, `/v1/runs/${runB}`)).json().submissions.total).toBe(5);
    expect((await get(api.operator, `/v1/runs/${runB}`)).statusCode).toBe(200);

    const report = await get(tokenA.token, `/v1/runs/${runB}/report`);
    expect(report.statusCode).toBe(404);
    expect(report.json().error).toMatchObject({ code: 'not_found', message: `run ${runB} does not exist` });
    expect((await get(tokenB.token, `/v1/runs/${runB}/report`)).statusCode).toBe(200);
    expect((await get(api.operator, `/v1/runs/${runB}/report`)).statusCode).toBe(200);

    expect((await get(tokenA.token, `/v1/reports/compare?runs=${runA},${runB}`)).statusCode).toBe(404);
    expect((await get(tokenA.token, `/v1/reports/compare?runs=${runA}`)).statusCode).toBe(200);
    expect((await get(api.operator, `/v1/reports/compare?runs=${runA},${runB}`)).statusCode).toBe(200);
    expect((await get(tokenA.token, `/v1/runs/${runB}/tracks`)).statusCode).toBe(404);

    const before = await env.deps.db.prisma.submission.count({ where: { runId: runB } });
    const single = await post(tokenA.token, '/v1/submissions', { instanceId: '1', runId: runB, patch: simplePatch() });
    expect(single.statusCode).toBe(404);
    expect(single.json().error).toMatchObject({ code: 'not_found', message: `run ${runB} does not exist` });
    const batch = await post(tokenA.token, `/v1/runs/${runB}/submissions`, [{ instanceId: '1', patch: simplePatch() }]);
    expect(batch.statusCode).toBe(404);
    const track = await post(tokenA.token, '/v1/tracks', { instanceId: '1', runId: runB });
    expect(track.statusCode).toBe(404);
    expect(await env.deps.db.prisma.submission.count({ where: { runId: runB } })).toBe(before);

    const accepted = await post(tokenA.token, `/v1/runs/${runA}/submissions`, [{ instanceId: '1', patch: simplePatch('src/batch.py') }]);
    expect(accepted.statusCode).toBe(202);
    const batchRow = await env.deps.repos.submissions.getSummary(accepted.json().submissionIds[0]);
    expect(batchRow?.ownerTokenId).toBe(tokenA.id);
    ownA.push(batchRow!.id);
    // An operator may submit into any run.
    expect((await post(api.operator, '/v1/submissions', { instanceId: '1', runId: runB, patch: simplePatch('src/op.py') })).statusCode).toBe(201);
  });

  it('scopes Idempotency-Key per token: two tokens get two submissions; the same token gets its first back, or 409', async () => {
    const key = `shared-${Date.now()}`;
    const body = { instanceId: '3', patch: simplePatch('src/idem.py') };
    const first = await post(tokenA.token, '/v1/submissions', body, { 'idempotency-key': key });
    const other = await post(tokenB.token, '/v1/submissions', body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(other.statusCode).toBe(201);
    expect(other.json().id).not.toBe(first.json().id);
    const again = await post(tokenA.token, '/v1/submissions', body, { 'idempotency-key': key });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    const changed = await post(tokenA.token, '/v1/submissions', { ...body, patch: simplePatch('src/other.py') }, { 'idempotency-key': key });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error.code).toBe('idempotency_key_reused');
    expect(changed.json().error.message).toContain(key);
    expect(changed.json().error.message).not.toContain(tokenA.id);
    // The CLI has its own scope: the same key there is a third submission.
    const cli = await env.deps.submissions.create(body, key);
    expect(cli.created).toBe(true);
    expect(await env.deps.db.prisma.submission.count({ where: { idempotencyKey: { endsWith: `:${key}` } } })).toBe(3);
  });

  it('submissions made on behalf of an owner inherit it: SWE-sweep subtasks, track rounds and re-runs', async () => {
    const row = (await readFile(fixture, 'utf8')).split('\n')[0]!;
    const extra = { ...JSON.parse(row), id: 'owned-extras', oracle_sha: 'abcdef1', subtasks: [{ id: 'hidden-1', testPatch: simplePatch('tests/test_hidden.py'), tests: ['tests/test_hidden.py::test_x'] }] };
    await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...as(api.operator), 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify(extra)}\n` });

    // A candidate with an empty patch needs no git to combine with the subtask's test patch.
    const { submission: candidate } = await env.deps.repos.submissions.createIdempotent({ instanceId: 'owned-extras', runId: runB, kind: 'candidate', patch: '', patchSha256: 'x', idempotencyKey: null, requestHash: null, ownerTokenId: tokenB.id });
    expect((await post(tokenA.token, `/v1/submissions/${candidate.id}/subtasks`, {})).statusCode).toBe(404);
    const started = await post(tokenB.token, `/v1/submissions/${candidate.id}/subtasks`, {});
    expect(started.statusCode).toBe(202);
    const subtaskId = started.json().subtasks[0].submissionId;
    expect((await env.deps.repos.submissions.getSummary(subtaskId))?.ownerTokenId).toBe(tokenB.id);
    expect((await get(tokenB.token, `/v1/submissions/${subtaskId}`)).statusCode).toBe(200);
    expect((await get(tokenA.token, `/v1/submissions/${subtaskId}`)).statusCode).toBe(404);

    const track = await post(tokenB.token, '/v1/tracks', { instanceId: 'owned-extras', runId: runB });
    expect(track.statusCode).toBe(201);
    const trackId = track.json().id;
    expect((await env.deps.repos.tracks.get(trackId))?.ownerTokenId).toBe(tokenB.id);
    expect((await get(tokenA.token, `/v1/tracks/${trackId}`)).statusCode).toBe(404);
    expect((await post(tokenA.token, `/v1/tracks/${trackId}/rounds`, { patch: simplePatch() })).statusCode).toBe(404);
    expect((await get(api.operator, `/v1/tracks/${trackId}`)).statusCode).toBe(200);
    const round = await post(tokenB.token, `/v1/tracks/${trackId}/rounds`, { patch: simplePatch() });
    expect(round.statusCode).toBe(202);
    expect((await env.deps.repos.submissions.getSummary(round.json().submissionId))?.ownerTokenId).toBe(tokenB.id);
    expect((await get(tokenB.token, `/v1/tracks/${trackId}`)).statusCode).toBe(200);
    expect((await get(tokenB.token, `/v1/runs/${runB}/tracks`)).statusCode).toBe(200);

    const delivery = { id: 'rerun-delivery', event: 'check_run', action: 'requested_action', payload: { check_run: { external_id: ownB[1] }, requested_action: { identifier: RERUN_ACTION.identifier } } };
    expect(await rerunDeliveryHook(delivery, await pipelineDeps(env.deps), env.logger)).toBe('processed');
    const rerun = await env.deps.db.prisma.submission.findUniqueOrThrow({ where: { idempotencyKey: `rerun-${ownB[1]}-2` } });
    expect(rerun.ownerTokenId).toBe(tokenB.id);
    expect((await get(tokenB.token, `/v1/submissions/${rerun.id}`)).statusCode).toBe(200);
    expect((await get(tokenA.token, `/v1/submissions/${rerun.id}`)).statusCode).toBe(404);
  });

  it('a re-run row is attempt 2 from the moment it exists (no reader sees it as attempt 1)', async () => {
    const deps = await pipelineDeps(env.deps);
    const submissions = deps.repos.submissions;
    let seenAtCreation: number | undefined;
    const watched = {
      ...deps,
      repos: {
        ...deps.repos,
        submissions: {
          ...submissions,
          createIdempotent: async (input: Parameters<typeof submissions.createIdempotent>[0]) => {
            const made = await submissions.createIdempotent(input);
            seenAtCreation = (await env.deps.db.prisma.submission.findUniqueOrThrow({ where: { id: made.submission.id } })).attempt;
            return made;
          },
        },
      },
    };
    const delivery = { id: 'rerun-delivery-2', event: 'check_run', action: 'requested_action', payload: { check_run: { external_id: ownB[2] }, requested_action: { identifier: RERUN_ACTION.identifier } } };
    expect(await rerunDeliveryHook(delivery, watched, env.logger)).toBe('processed');
    expect(seenAtCreation).toBe(2);
    expect((await env.deps.db.prisma.submission.findUniqueOrThrow({ where: { idempotencyKey: `rerun-${ownB[2]}-2` } })).attempt).toBe(2);
  });
});
