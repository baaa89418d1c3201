import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../../src/auth/tokens.js';
import { registerReportCommands } from '../../../src/cli/report-commands.js';
import type { InstanceInput } from '../../../src/db/index.js';
import { buildApp } from '../../../src/http/app.js';
import { reportRoutes } from '../../../src/http/routes/reports.js';
import { sweepRoutes } from '../../../src/http/routes/sweep.js';
import { collectTestResults } from '../../../src/pipeline/test-results.js';
import { loadCiRepairInputs, runReport } from '../../../src/reports/index.js';
import { sweepSummaryJson } from '../../../src/scoring/index.js';
import { submitSweepSubtasks } from '../../../src/sweep/index.js';
import { makeTempDir, removeDir, standardFixture, type FixtureRepo } from '../../support/git-fixtures.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

let env: TestEnv;
let app: FastifyInstance;
let auth: { authorization: string };
let fixture: FixtureRepo;
let fixtureDir: string;
let runId: string;
let runCounter = 0;
const candidates = new Map<string, string>();

const FIX_ADD = ['diff --git a/src/app.py b/src/app.py', '--- a/src/app.py', '+++ b/src/app.py', '@@ -1,5 +1,5 @@', ' def add(a, b):', '-    return a - b', '+    return a + b', ' ', ' ', ' def sub(a, b):', ''].join('\n');
const testPatch = (name: string): string =>
  [`diff --git a/tests/test_${name}.py b/tests/test_${name}.py`, 'new file mode 100644', '--- /dev/null', `+++ b/tests/test_${name}.py`, '@@ -0,0 +1,2 @@', `+def test_${name}():`, '+    assert True', ''].join('\n');
const BASE = ['tests/test_app.py::test_base_0', 'tests/test_app.py::test_base_1', 'tests/test_app.py::test_base_2'];

function junit(passed: readonly string[], failed: readonly string[]): string {
  const testcase = (test: string, body: string): string => {
    const [file = '', name = ''] = test.split('::');
    return `<testcase classname="${file.replace(/\.py$/, '').replace(/\//g, '.')}" name="${name}" time="0.01">${body}</testcase>`;
  };
  return `<testsuites><testsuite name="pytest">${[...passed.map((t) => testcase(t, '')), ...failed.map((t) => testcase(t, '<failure message="x"/>'))].join('')}</testsuite></testsuites>`;
}

async function finish(submissionId: string, passed: readonly string[], failed: readonly string[] = []): Promise<void> {
  runCounter += 1;
  const ciRun = String(700_000 + runCounter);
  const dir = join(env.dataDir, 'runs', ciRun, 'artifacts', 'junit');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'pytest.xml'), junit(passed, failed));
  await env.deps.repos.submissions.transition(submissionId, ['queued'], 'completed', { verdict: failed.length === 0 ? 'passed' : 'failed', completedAt: new Date() });
  await collectTestResults(env.deps, submissionId, { repoFullName: 'local/fixture', runId: ciRun, runAttempt: 1 });
}

function instance(id: string, subtasks: { id: string; testPatch: string; tests: string[] }[]): InstanceInput {
  return {
    id, dataset: 'swe-sweep', language: 'Python', repoOwner: 'fixture', repoName: 'app', sourceRepoOwner: null, upstreamUrl: fixture.url,
    headBranch: 'main', workflowName: 'CI', workflowFilename: 'ci.yml', workflowPath: '.github/workflows/ci.yml', workflow: 'name: CI\non: push\njobs: {}\n',
    shaFail: fixture.shas[1] ?? '', shaSuccess: null, diff: '', changedFiles: [], commitDate: null, logs: [], labels: ['Test Failure'], rawLabels: [], protectedPaths: [],
    oracleSha: null, subtasks, basePassingTests: BASE, pythonVersion: null, installCommand: null, contentHash: id, metadata: {},
  };
}

const bug = (name: string): { id: string; testPatch: string; tests: string[] } => ({ id: name, testPatch: testPatch(name), tests: [`tests/test_${name}.py::test_${name}`] });

beforeAll(async () => {
  env = await createTestEnv();
  fixtureDir = await makeTempDir();
  fixture = await standardFixture(fixtureDir);
  const { deps } = env;
  const sweepDeps = { repos: deps.repos, mirrors: deps.mirrors, queues: deps.queues, logger: deps.logger };
  app = await buildApp({ config: deps.config, logger: deps.logger, repos: deps.repos, submissions: deps.submissions, readiness: deps.readiness, extraRoutes: [reportRoutes, sweepRoutes(sweepDeps)] });
  auth = { authorization: `Bearer ${(await mintToken(deps.repos.tokens, { name: 'model', role: 'operator' })).token}` };
  await deps.repos.instances.upsert(instance('sweep-a', [bug('a1'), bug('a2')]));
  await deps.repos.instances.upsert(instance('sweep-b', [bug('b1')]));
  await deps.repos.instances.upsert(instance('sweep-c', [bug('c1')]));
  runId = (await deps.repos.runs.create({ label: 'model-x', metadata: {} })).id;
  const ids = await deps.repos.submissions.createMany(
    ['sweep-a', 'sweep-b', 'sweep-c'].map((instanceId) => ({ instanceId, runId, kind: 'candidate' as const, patch: FIX_ADD, patchSha256: 'x', idempotencyKey: null, requestHash: null })),
  );
  ids.forEach((id, index) => candidates.set(['sweep-a', 'sweep-b', 'sweep-c'][index] ?? '', id));
});

afterAll(async () => {
  await app?.close();
  await env?.cleanup();
  if (fixtureDir !== undefined) await removeDir(fixtureDir);
});

describe('SWE-sweep evaluation from stored results', () => {
  it('creates one linked submission per subtask with the candidate and test patches, idempotently', async () => {
    const a = candidates.get('sweep-a') ?? '';
    const response = await app.inject({ method: 'POST', url: `/v1/submissions/${a}/subtasks`, headers: auth });
    expect(response.statusCode, response.body).toBe(202);
    const runs = response.json().subtasks as { subtaskId: string; submissionId: string; created: boolean }[];
    expect(runs.map((run) => [run.subtaskId, run.created])).toEqual([['a1', true], ['a2', true]]);
    const again = (await app.inject({ method: 'POST', url: `/v1/submissions/${a}/subtasks`, headers: auth })).json();
    expect(again.subtasks).toEqual(runs.map((run) => ({ ...run, created: false })));
    const row = await env.deps.repos.submissions.get(runs[0]?.submissionId ?? '');
    expect(row).toMatchObject({ parentSubmissionId: a, subtaskId: 'a1', runId, kind: 'candidate' });
    expect(row?.patch).toContain('+    return a + b');
    expect(row?.patch).toContain('+def test_a1():');
    expect(row?.patch).not.toContain('test_a2');
    const notCandidate = await app.inject({ method: 'POST', url: `/v1/submissions/${runs[0]?.submissionId ?? ''}/subtasks`, headers: auth });
    expect(notCandidate.statusCode).toBe(422);
  });

  it('grades trials (resolution, regression gate, evaluation failures) and prints sweep info --json', async () => {
    const sweepDeps = { repos: env.deps.repos, mirrors: env.deps.mirrors, queues: env.deps.queues, logger: env.deps.logger };
    const [a, b, c] = ['sweep-a', 'sweep-b', 'sweep-c'].map((id) => candidates.get(id) ?? '');
    const runsA = await submitSweepSubtasks(sweepDeps, a ?? '');
    const runsB = await submitSweepSubtasks(sweepDeps, b ?? '');
    await submitSweepSubtasks(sweepDeps, c ?? '');
    // a: no regression, a1 resolved, a2 not → 1 of 2.
    await finish(a ?? '', [...BASE, 'tests/test_app.py::test_other']);
    await finish(runsA[0]?.submissionId ?? '', ['tests/test_a1.py::test_a1']);
    await finish(runsA[1]?.submissionId ?? '', [], ['tests/test_a2.py::test_a2']);
    // b: a base-passing test is missing → regressed; b1 resolved.
    await finish(b ?? '', [BASE[0] ?? '', BASE[2] ?? '']);
    await finish(runsB[0]?.submissionId ?? '', ['tests/test_b1.py::test_b1']);
    // c: the visible suite never ran → evaluation failure.
    await env.deps.repos.submissions.transition(c ?? '', ['queued'], 'infra_error', { verdict: 'invalid', reason: 'infra_error' });

    const expected = sweepSummaryJson([
      { task: 'sweep-a', bugs: 2, resolved: 1, regressed: false },
      { task: 'sweep-b', bugs: 1, resolved: 1, regressed: true },
      { task: 'sweep-c', evaluationFailed: true },
    ]);
    expect(expected.summary).toEqual({ graded_tasks: 2, graded_bugs: 3, resolved_bugs: 1, score: 1 / 3, score_ignoring_regressions: 2 / 3, evaluation_failures: 1 });
    const rendered = await runReport(env.deps, [runId], { format: 'sweep-json' });
    expect(JSON.parse(rendered.body)).toEqual(expected);
    const http = await app.inject({ method: 'GET', url: `/v1/runs/${runId}/report?format=sweep-json`, headers: auth });
    expect(http.headers['content-type']).toMatch(/^application\/json/);
    expect(http.json()).toEqual(expected);

    const out: string[] = [];
    const program = new Command('ci-replay').exitOverride();
    registerReportCommands(program, { out: (text) => out.push(text), err: (text) => out.push(text) }, (work) => work(env.deps));
    await program.parseAsync(['node', 'ci-replay', 'report', runId, '--format', 'sweep-json']);
    expect(JSON.parse(out.join(''))).toEqual(expected);
  });

  it('keeps subtask runs out of the CI-Repair-Bench report', async () => {
    const inputs = await loadCiRepairInputs(env.deps, [runId]);
    expect(inputs.runs[0]?.submissions).toHaveLength(3);
    expect(inputs.instances.map((row) => row.id)).toEqual(['sweep-a', 'sweep-b', 'sweep-c']);
  });
});
