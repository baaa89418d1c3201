import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../../src/auth/tokens.js';
import { registerReportCommands } from '../../../src/cli/report-commands.js';
import type { InstanceInput } from '../../../src/db/index.js';
import { buildApp } from '../../../src/http/app.js';
import { trackRoutes } from '../../../src/http/routes/tracks.js';
import { collectTestResults } from '../../../src/pipeline/test-results.js';
import { evoScore } from '../../../src/scoring/index.js';
import { createTrackService, type TrackService } from '../../../src/tracks/index.js';
import { makeTempDir, removeDir, standardFixture, type FixtureRepo } from '../../support/git-fixtures.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

let env: TestEnv;
let app: FastifyInstance;
let auth: { authorization: string };
let operator: { authorization: string };
let fixture: FixtureRepo;
let fixtureDir: string;
let service: TrackService;
let runCounter = 0;

const BASE_TESTS = Array.from({ length: 10 }, (_, i) => `tests/test_app.py::test_base_${i}`);
const GAP_TESTS = Array.from({ length: 10 }, (_, i) => `tests/test_app.py::test_gap_${i}`);
const ALL_TESTS = [...BASE_TESTS, ...GAP_TESTS];

const FIX_ADD = ['diff --git a/src/app.py b/src/app.py', '--- a/src/app.py', '+++ b/src/app.py', '@@ -1,5 +1,5 @@', ' def add(a, b):', '-    return a - b', '+    return a + b', ' ', ' ', ' def sub(a, b):', ''].join('\n');
const README = ['diff --git a/README.md b/README.md', '--- a/README.md', '+++ b/README.md', '@@ -1 +1,2 @@', ' # demo', '+round two', ''].join('\n');
const CONFLICT = ['diff --git a/README.md b/README.md', '--- a/README.md', '+++ b/README.md', '@@ -1 +1 @@', '-# something else', '+# nope', ''].join('\n');
const DOCS = ['diff --git a/docs.txt b/docs.txt', 'new file mode 100644', '--- /dev/null', '+++ b/docs.txt', '@@ -0,0 +1 @@', '+docs', ''].join('\n');

/** A pytest JUnit report in which the first `passed` of `tests` pass and the rest fail (one as an error, one skipped). */
function junit(tests: readonly string[], passed: number): string {
  const cases = tests.map((test, index) => {
    const [file = '', name = ''] = test.split('::');
    const classname = file.replace(/\.py$/, '').replace(/\//g, '.');
    const body = index < passed ? '' : index % 3 === 0 ? '<error message="teardown"/>' : index % 3 === 1 ? '<skipped type="pytest.xfail" message="x"/>' : '<failure message="assert">trace</failure>';
    return `<testcase classname="${classname}" name="${name}" time="0.010">${body}</testcase>`;
  });
  return `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" tests="${tests.length}">${cases.join('')}</testsuite></testsuites>`;
}

/** Finishes a submission as the pipeline would: a completed run whose junit artifact is read by collectTestResults. */
async function finish(submissionId: string, tests: readonly string[], passed: number): Promise<number> {
  runCounter += 1;
  const runId = String(900_000 + runCounter);
  const dir = join(env.dataDir, 'runs', runId, 'artifacts', 'junit');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'report.xml'), junit(tests, passed));
  await writeFile(join(dir, 'notes.txt'), 'not xml');
  await env.deps.repos.submissions.transition(submissionId, ['queued', 'preparing', 'published', 'running'], 'completed', { verdict: passed === tests.length ? 'passed' : 'failed', completedAt: new Date() });
  return collectTestResults(env.deps, submissionId, { repoFullName: 'local/fixture', runId, runAttempt: 1 });
}

function instance(id: string, oracleSha: string | null): InstanceInput {
  return {
    id, dataset: 'swe-ci', language: 'Python', repoOwner: 'fixture', repoName: 'app', sourceRepoOwner: null, upstreamUrl: fixture.url,
    headBranch: 'main', workflowName: 'CI', workflowFilename: 'ci.yml', workflowPath: '.github/workflows/ci.yml', workflow: 'name: CI\non: push\njobs: {}\n',
    shaFail: fixture.shas[1] ?? '', shaSuccess: null, diff: '', changedFiles: [], commitDate: null, logs: [], labels: [], rawLabels: [], protectedPaths: [],
    oracleSha, subtasks: null, basePassingTests: [], pythonVersion: null, installCommand: null, contentHash: id, metadata: {},
  };
}

async function submission(instanceId: string, kind: 'baseline' | 'reference'): Promise<string> {
  const [id] = await env.deps.repos.submissions.createMany([{ instanceId, runId: null, kind, patch: '', patchSha256: 'x', idempotencyKey: null, requestHash: null }]);
  if (id === undefined) throw new Error('no id');
  return id;
}

beforeAll(async () => {
  env = await createTestEnv();
  fixtureDir = await makeTempDir();
  fixture = await standardFixture(fixtureDir);
  const { deps } = env;
  service = createTrackService({ repos: deps.repos, mirrors: deps.mirrors, queues: deps.queues, logger: deps.logger, patchMaxBytes: deps.config.limits.patchMaxBytes });
  const short = createTrackService({ repos: deps.repos, mirrors: deps.mirrors, queues: deps.queues, logger: deps.logger, patchMaxBytes: deps.config.limits.patchMaxBytes, maxRounds: 1 });
  app = await buildApp({
    config: deps.config, logger: deps.logger, repos: deps.repos, submissions: deps.submissions, readiness: deps.readiness,
    extraRoutes: [trackRoutes(service), async (scoped) => scoped.register(async (child) => trackRoutes(short)(child, { config: deps.config, logger: deps.logger, repos: deps.repos, submissions: deps.submissions, readiness: {} }), { prefix: '/short' })],
  });
  auth = { authorization: `Bearer ${(await mintToken(deps.repos.tokens, { name: 'model', role: 'submitter' })).token}` };
  operator = { authorization: `Bearer ${(await mintToken(deps.repos.tokens, { name: 'ops', role: 'operator' })).token}` };
  await deps.repos.instances.upsert(instance('swe-ci-1', fixture.shas[0] ?? null));
  await deps.repos.instances.upsert(instance('no-oracle', null));
  await deps.repos.instances.upsert(instance('swe-ci-2', fixture.shas[0] ?? null));
  const base = await submission('swe-ci-1', 'baseline');
  const oracle = await submission('swe-ci-1', 'reference');
  expect(await finish(base, ALL_TESTS, 10)).toBe(20);
  expect(await finish(oracle, ALL_TESTS, 20)).toBe(20);
});

afterAll(async () => {
  await app?.close();
  await env?.cleanup();
  if (fixtureDir !== undefined) await removeDir(fixtureDir);
});

describe('SWE-CI tracks', () => {
  it('refuses instances without an oracle commit and unknown instances', async () => {
    const noOracle = await app.inject({ method: 'POST', url: '/v1/tracks', headers: auth, payload: { instanceId: 'no-oracle' } });
    expect(noOracle.statusCode).toBe(422);
    expect(noOracle.json().error.code).toBe('no_oracle');
    const unknown = await app.inject({ method: 'POST', url: '/v1/tracks', headers: auth, payload: { instanceId: 'nope' } });
    expect(unknown.statusCode).toBe(404);
    const missing = await app.inject({ method: 'GET', url: '/v1/tracks/00000000-0000-4000-8000-000000000000', headers: auth });
    expect(missing.statusCode).toBe(404);
  });

  it('runs rounds on the previous kept code and scores them from stored test results', async () => {
    const created = await app.inject({ method: 'POST', url: '/v1/tracks', headers: auth, payload: { instanceId: 'swe-ci-1' } });
    expect(created.statusCode).toBe(201);
    const track = created.json();
    expect(track).toMatchObject({ instanceId: 'swe-ci-1', maxRounds: 20, p0: 10, pStar: 20, rounds: [] });
    const round = async (patch: string): Promise<{ roundNumber: number; submissionId: string; keptFromRound: number | null; state: string }> => {
      const response = await app.inject({ method: 'POST', url: `/v1/tracks/${track.id}/rounds`, headers: auth, payload: { patch } });
      expect(response.statusCode, response.body).toBe(202);
      return response.json();
    };

    const first = await round(FIX_ADD);
    expect(first).toMatchObject({ roundNumber: 1, keptFromRound: null, state: 'queued' });
    const pending = await app.inject({ method: 'POST', url: `/v1/tracks/${track.id}/rounds`, headers: auth, payload: { patch: README } });
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error.code).toBe('round_pending');
    await finish(first.submissionId, ALL_TESTS, 12);

    const second = await round(README);
    expect(second, (await env.deps.repos.submissions.get(second.submissionId))?.errorMessage ?? '').toMatchObject({ roundNumber: 2, keptFromRound: 1, state: 'queued' });
    const secondPatch = (await env.deps.repos.submissions.get(second.submissionId))?.patch ?? '';
    expect(secondPatch).toContain('+    return a + b');
    expect(secondPatch).toContain('+round two');
    await finish(second.submissionId, ALL_TESTS, 15);

    const third = await round(DOCS);
    await finish(third.submissionId, ALL_TESTS, 9);
    const fourth = await round(FIX_ADD.replace('a + b', 'a + b  # again').replace('-    return a - b', '-    return a + b'));
    expect(fourth.keptFromRound).toBe(3);
    await finish(fourth.submissionId, ALL_TESTS, 20);

    const view = await app.inject({ method: 'GET', url: `/v1/tracks/${track.id}`, headers: auth });
    expect(view.statusCode).toBe(200);
    const body = view.json();
    expect(body.rounds.map((r: { passed: number }) => r.passed)).toEqual([12, 15, 9, 20]);
    expect(body.rounds.map((r: { normalizedChange: number }) => r.normalizedChange)).toEqual([0.2, 0.5, -0.1, 1]);
    expect(body.score).toMatchObject({ gamma: 1, evoScore: 0.88, solved: true, zeroRegression: false, rounds: 4, invalidRounds: 0 });
    const weighted = await app.inject({ method: 'GET', url: `/v1/tracks/${track.id}?gamma=1.2`, headers: auth });
    expect(weighted.json().score.evoScore).toBeCloseTo(0.984016, 6);

    const conflicting = await round(CONFLICT);
    expect(conflicting).toMatchObject({ roundNumber: 5, keptFromRound: 4, state: 'patch_failed' });
    const sixth = await round(README.replace('round two', 'round six').replace('@@ -1 +1,2 @@\n # demo', '@@ -1,2 +1,3 @@\n # demo\n round two'));
    expect(sixth.keptFromRound).toBe(4);
    const after = (await app.inject({ method: 'GET', url: `/v1/tracks/${track.id}`, headers: auth })).json();
    expect(after.rounds[4]).toMatchObject({ status: 'invalid', passed: null, normalizedChange: -1, state: 'patch_failed' });
    expect(after.rounds[5]).toMatchObject({ status: 'pending', passed: null, normalizedChange: null });
    expect(after.score.evoScore).toBe(evoScore([12, 15, 9, 20, null], 10, 20));
    expect(after.score.invalidRounds).toBe(1);
  });

  it('stops at the configured number of rounds', async () => {
    const created = (await app.inject({ method: 'POST', url: '/short/v1/tracks', headers: auth, payload: { instanceId: 'swe-ci-1' } })).json();
    expect(created.maxRounds).toBe(1);
    const first = await app.inject({ method: 'POST', url: `/short/v1/tracks/${created.id}/rounds`, headers: auth, payload: { patch: FIX_ADD } });
    await finish(first.json().submissionId, ALL_TESTS, 20);
    const second = await app.inject({ method: 'POST', url: `/short/v1/tracks/${created.id}/rounds`, headers: auth, payload: { patch: README } });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('max_rounds');
    const view = (await app.inject({ method: 'GET', url: `/short/v1/tracks/${created.id}`, headers: auth })).json();
    expect(view.score).toMatchObject({ evoScore: 1, solved: true, zeroRegression: true });
  });

  it('establishes test sets on request and scores nothing without them', async () => {
    const created = (await app.inject({ method: 'POST', url: '/v1/tracks', headers: auth, payload: { instanceId: 'swe-ci-2' } })).json();
    expect(created).toMatchObject({ p0: null, pStar: null, score: null });
    const none = await app.inject({ method: 'POST', url: '/v1/instances/swe-ci-2/test-sets', headers: operator });
    expect(none.statusCode).toBe(409);
    const base = await submission('swe-ci-2', 'baseline');
    const oracle = await submission('swe-ci-2', 'reference');
    await finish(base, ALL_TESTS, 5);
    await finish(oracle, ALL_TESTS, 18);
    const forbidden = await app.inject({ method: 'POST', url: '/v1/instances/swe-ci-2/test-sets', headers: auth });
    expect(forbidden.statusCode).toBe(403);
    const set = await app.inject({ method: 'POST', url: '/v1/instances/swe-ci-2/test-sets', headers: operator, payload: { baseSubmissionId: base, oracleSubmissionId: oracle } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ p0: 5, pStar: 18, baseSubmissionId: base, oracleSubmissionId: oracle });
    expect(set.json().gapTests).toHaveLength(13);
    const view = (await app.inject({ method: 'GET', url: `/v1/tracks/${created.id}`, headers: auth })).json();
    expect(view).toMatchObject({ p0: 5, pStar: 18, score: { evoScore: 0, solved: false, zeroRegression: true } });
  });

  it("summarizes a run's tracks as SWE-CI does (means over tasks)", async () => {
    const run = (await app.inject({ method: 'POST', url: '/v1/runs', headers: auth, payload: { label: 'model-y' } })).json();
    const trackIds: string[] = [];
    for (const passed of [15, 5]) {
      const created = await app.inject({ method: 'POST', url: '/v1/tracks', headers: auth, payload: { instanceId: 'swe-ci-1', runId: run.id } });
      expect(created.statusCode).toBe(201);
      trackIds.push(created.json().id);
      const round = await app.inject({ method: 'POST', url: `/v1/tracks/${created.json().id}/rounds`, headers: auth, payload: { patch: FIX_ADD } });
      await finish(round.json().submissionId, ALL_TESTS, passed);
    }
    const response = await app.inject({ method: 'GET', url: `/v1/runs/${run.id}/tracks`, headers: auth });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.tasks.map((task: { evoScore: number; solved: boolean; zeroRegression: boolean }) => [task.evoScore, task.solved, task.zeroRegression])).toEqual([
      [0.5, false, true],
      [-0.5, false, false],
    ]);
    expect(body).toMatchObject({ runId: run.id, gamma: 1, meanEvoScore: 0, solvedRate: 0, zeroRegressionRate: 0.5, unscored: [] });
    expect(body.tasks.map((task: { finalPassed: number; finalChange: number }) => [task.finalPassed, task.finalChange])).toEqual([
      [15, 0.5],
      [5, -0.5],
    ]);
    const unknown = await app.inject({ method: 'GET', url: '/v1/runs/00000000-0000-4000-8000-000000000000/tracks', headers: auth });
    expect(unknown.statusCode).toBe(404);

    const markdown = await app.inject({ method: 'GET', url: `/v1/runs/${run.id}/tracks?format=markdown`, headers: auth });
    expect(markdown.statusCode, markdown.body).toBe(200);
    expect(markdown.headers['content-type']).toMatch(/^text\/markdown/);
    expect(markdown.body.split('\n').slice(0, 7)).toEqual([
      `### SWE-CI run ${run.id}: 2 tasks, EvoScore at γ = 1`,
      '',
      '| Instance | Track | Rounds | Invalid | p0 | Final | p* | Change | EvoScore | Solved | Zero-regression |',
      '|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| swe-ci-1 | ${trackIds[0]} | 1 | 0 | 10 | 15 | 20 | 0.500 | 0.500 | no | yes |`,
      `| swe-ci-1 | ${trackIds[1]} | 1 | 0 | 10 | 5 | 20 | -0.500 | -0.500 | no | no |`,
      '| Mean (2 tasks) |  |  |  |  |  |  |  | 0.000 | 0.0% | 50.0% |',
    ]);
    const csv = await app.inject({ method: 'GET', url: `/v1/runs/${run.id}/tracks?format=csv&gamma=2`, headers: auth });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.split('\r\n')).toEqual([
      'Instance,Track,Rounds,Invalid,p0,Final,p*,Change,EvoScore,Solved,Zero-regression',
      `swe-ci-1,${trackIds[0]},1,0,10,15,20,0.500,0.500,no,yes`,
      `swe-ci-1,${trackIds[1]},1,0,10,5,20,-0.500,-0.500,no,no`,
      'Mean (2 tasks),,,,,,,,0.000,0.0%,50.0%',
      '',
    ]);
    const bad = await app.inject({ method: 'GET', url: `/v1/runs/${run.id}/tracks?format=xml`, headers: auth });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_request' });
    expect(bad.json().error.message).toContain('query.format');

    const one = await app.inject({ method: 'GET', url: `/v1/tracks/${trackIds[1]}?format=csv`, headers: auth });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.headers['content-type']).toMatch(/^text\/csv/);
    const [header, first, ...rest] = one.body.split('\r\n');
    expect(header).toBe('Round,Submission,State,Status,Kept from,Passed,Change');
    expect(first).toMatch(/^1,[0-9a-f-]{36},completed,valid,base,5,-0\.500$/);
    expect(rest).toEqual(['']);
    const oneMarkdown = await app.inject({ method: 'GET', url: `/v1/tracks/${trackIds[1]}?format=markdown`, headers: auth });
    expect(oneMarkdown.headers['content-type']).toMatch(/^text\/markdown/);
    expect(oneMarkdown.body).toContain('_EvoScore at γ = 1: -0.500 over 1 of 20 rounds (0 invalid); solved: no; zero-regression: no_');
    const badOne = await app.inject({ method: 'GET', url: `/v1/tracks/${trackIds[1]}?format=pdf`, headers: auth });
    expect(badOne.statusCode).toBe(400);
    expect(badOne.json().error.message).toContain('query.format');

    const out: string[] = [];
    const cli = async (args: string[]): Promise<string> => {
      out.length = 0;
      const program = new Command('ci-replay').exitOverride().configureOutput({ writeErr: () => undefined });
      registerReportCommands(program, { out: (text) => out.push(text), err: (text) => out.push(text) }, (work) => work(env.deps), (work) => work(service));
      await program.parseAsync(['node', 'ci-replay', ...args]);
      return out.join('');
    };
    expect(await cli(['tracks', run.id, '--format', 'csv', '--gamma', '2'])).toBe(csv.body);
    expect(await cli(['tracks', run.id, '--format', 'markdown'])).toBe(markdown.body);
    const table = await cli(['tracks', run.id]);
    expect(table).toMatch(/\nMean \(2 tasks\)\s+0\.000\s+0\.0%\s+50\.0%\n/);
    expect(JSON.parse(await cli(['tracks', run.id, '--format', 'json']))).toEqual(body);
    expect(await cli(['track', trackIds[1] ?? '', '--format', 'csv'])).toBe(one.body);
    await expect(cli(['tracks', 'nope'])).rejects.toMatchObject({ code: 'invalid_run_id' });
    await expect(cli(['tracks', run.id, '--gamma', '0'])).rejects.toMatchObject({ code: 'invalid_gamma' });
    await expect(cli(['tracks', run.id, '--format', 'xml'])).rejects.toThrow(/xml/);
  });
});
