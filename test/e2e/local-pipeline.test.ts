import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, COMMITTED_INSTANCES, type Demo } from '../../examples/build-demo.js';
import { readFile } from 'node:fs/promises';
import { createWorkers, type Workers } from '../../src/workers.js';
import { settleRevalidations } from '../../src/revalidation/service.js';
import { createApiHarness, type ApiHarness } from '../support/api-client.js';
import { createTestEnv, type TestEnv } from '../support/test-env.js';
import { waitFor } from '../support/wait-for.js';

const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

describe('the pipeline end to end on the local backend (API → worker → executor → database)', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let workers: Workers;
  let demo: Demo;

  beforeAll(async () => {
    env = await createTestEnv({ WORKER_CONCURRENCY: '2' });
    api = await createApiHarness(env);
    demo = await buildDemo(join(env.dataDir, 'examples'));
    const imported = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: demo.jsonl });
    expect(imported.json()).toMatchObject({ created: 4, failed: 0 });
    workers = await createWorkers(env.deps);
  });
  afterAll(async () => {
    await workers?.close();
    await api?.app.close();
    await env?.cleanup();
  });

  async function submit(payload: Record<string, unknown>): Promise<string> {
    // A reference replays the ground truth of a non-public instance: operators only (a submitter gets 403).
    const token = payload.kind === 'reference' ? api.operator : api.submitter;
    const response = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(token), payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id;
  }

  async function finished(id: string): Promise<Record<string, unknown>> {
    return waitFor(
      async () => {
        const body = (await api.app.inject({ url: `/v1/submissions/${id}`, headers: api.auth(api.operator) })).json();
        return TERMINAL.includes(body.state) && (body.state !== 'completed' || body.verdict !== null) ? body : undefined;
      },
      { timeoutMs: 120_000, describe: async () => (await api.app.inject({ url: `/v1/submissions/${id}`, headers: api.auth(api.operator) })).json() },
    );
  }

  async function jobsOf(id: string) {
    const runs = await env.deps.repos.ci.runsOf(id);
    expect(runs).toHaveLength(1);
    return env.deps.repos.ci.jobsOfRun(runs[0]!.id);
  }

  it('the unpatched lint instance fails in the flake8 step, with the right label and an archived log', async () => {
    const id = await submit({ instanceId: 'demo-lint', kind: 'baseline' });
    const result = await finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed', observedLabels: ['Code Linting'] });
    expect(result.branch).toBe(`ci-replay/baseline/${id}`);
    const jobs = await jobsOf(id);
    const byName = Object.fromEntries(jobs.map((job) => [job.name, job]));
    expect(Object.keys(byName).sort()).toEqual(['format', 'lint', 'test (3.11)']);
    expect(byName.lint).toMatchObject({ conclusion: 'failure', failedStep: 'Lint with flake8' });
    expect(byName.format?.conclusion).toBe('success');
    expect(byName['test (3.11)']?.conclusion).toBe('success');
    expect(byName.lint?.log).not.toBeNull();
    expect(byName.lint?.steps.map((step) => [step.name, step.conclusion])).toEqual([
      ['Set up job', 'success'],
      ['Run actions/checkout@v4', 'success'],
      ['Run actions/setup-python@v5', 'success'],
      ['Lint with flake8', 'failure'],
      ['Post Run actions/checkout@v4', 'success'],
      ['Complete job', 'success'],
    ]);
    const labels = await env.deps.repos.ci.labelsOf(id);
    expect(labels.map((label) => [label.type, label.tool])).toEqual([['Code Linting', 'flake8']]);
    expect(JSON.stringify(labels[0]?.findings)).toContain('F401');
    const stored = await env.deps.logStore.open(byName.lint!.log!.storageKey);
    let text = '';
    for await (const chunk of stored!) text += chunk;
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z /m);
    expect(text).toContain("F401 'os' imported but unused");
    expect(text).toContain('##[error]Process completed with exit code 1.');
    // the steps ran in the sandbox (EXECUTOR_SANDBOX=auto, EXECUTOR_NETWORK=egress by default), flake8 and setup-python's interpreter working in it
    expect(text).toMatch(/^\S+ Step sandbox: namespaces \(pid, mount, ipc, uts\); steps run as an unprivileged user/m);
    expect(text).toMatch(/^\S+ Network: egress \(host network; chain CI_REPLAY_STEPS refuses uids 60000-60999 TCP to local:/m);
    const detail = (await api.app.inject({ url: `/v1/submissions/${id}/jobs`, headers: api.auth(api.submitter) })).json();
    const lintJob = detail.runs[0].jobs.find((job: { name: string }) => job.name === 'lint');
    expect(lintJob).toMatchObject({ conclusion: 'failure', failedStep: 'Lint with flake8', labels: [{ type: 'Code Linting', tool: 'flake8', learned: false }] });
    expect(BigInt(detail.runs[0].runId) > 2n ** 31n).toBe(true);
    const segments = (await api.app.inject({ url: `/v1/submissions/${id}/logs/segments?budget=300`, headers: api.auth(api.submitter) })).json();
    expect(segments.totalTokens).toBeLessThanOrEqual(300);
    expect(segments.segments[0]).toMatchObject({ jobName: 'lint' });
    expect(segments.segments.map((segment: { text: string }) => segment.text).join('\n')).toContain("F401 'os' imported but unused");
    expect(segments.segments[0].text).not.toMatch(/^\d{4}-\d\d-\d\dT/m);
    expect((await api.app.inject({ url: '/v1/instances/demo-lint/logs/segments?budget=1000', headers: api.auth(api.submitter) })).statusCode).toBe(404);
    const instanceSegments = (await api.app.inject({ url: '/v1/instances/demo-lint/logs/segments?budget=1000', headers: api.auth(api.operator) })).json();
    expect(instanceSegments).toMatchObject({ instanceId: 'demo-lint', budget: 1000 });
    const badBudget = await api.app.inject({ url: `/v1/submissions/${id}/logs/segments?budget=abc`, headers: api.auth(api.submitter) });
    expect(badBudget.statusCode).toBe(400);
    const standardization = result.standardization as { report: { action: string; target: string }[] };
    expect(standardization.report).toContainEqual(expect.objectContaining({ action: 'removed-job', target: 'jobs.publish' }));
  }, 180_000);

  it('every ground-truth patch turns its instance green; every unpatched commit fails in the right job', async () => {
    const expectations: Record<string, { job: string; step: string; labels: string[] }> = {
      'demo-format': { job: 'format', step: 'Check formatting with black', labels: ['Code Formatting'] },
      'demo-assertion': { job: 'test (3.11)', step: 'Run tests', labels: ['Test Failure', 'Assertion Error'] },
      'demo-dependency': { job: 'test (3.11)', step: 'Run tests', labels: ['Dependency Issues'] },
    };
    const ids = await Promise.all(
      demo.instances.flatMap((instance) => [
        submit({ instanceId: instance.id, kind: 'reference' }).then((id) => ({ id, instance: instance.id, kind: 'reference' })),
        ...(instance.id in expectations ? [submit({ instanceId: instance.id, kind: 'baseline' }).then((id) => ({ id, instance: instance.id, kind: 'baseline' }))] : []),
      ]),
    );
    for (const { id, instance, kind } of ids) {
      const result = await finished(id);
      if (kind === 'reference') {
        expect(result, instance).toMatchObject({ state: 'completed', verdict: 'passed', observedLabels: [] });
        continue;
      }
      const expected = expectations[instance]!;
      expect(result, instance).toMatchObject({ state: 'completed', verdict: 'failed' });
      expect([...(result.observedLabels as string[])].sort(), instance).toEqual([...expected.labels].sort());
      const failed = (await jobsOf(id)).filter((job) => job.conclusion === 'failure');
      expect(failed.map((job) => [job.name, job.failedStep]), instance).toEqual([[expected.job, expected.step]]);
    }
  }, 180_000);

  it('installs a standardized template instead of the instance workflow when the instance names one', async () => {
    const row = { ...demo.instances[2]!.row, id: 'demo-assertion-template', workflow_template: 'python-pytest', python_version: '3.11', install_command: 'python -m pip --version', template_values: { test_command: 'python -m pytest -q tests' } };
    const imported = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify(row)}\n` });
    expect(imported.json()).toMatchObject({ created: 1 });
    const baseline = await finished(await submit({ instanceId: row.id, kind: 'baseline' }));
    expect(baseline).toMatchObject({ state: 'completed', verdict: 'failed' });
    expect([...(baseline.observedLabels as string[])].sort()).toEqual(['Assertion Error', 'Test Failure']);
    expect(JSON.stringify(baseline.standardization)).toContain('installed the standardized template python-pytest');
    const fixed = await finished(await submit({ instanceId: row.id, kind: 'reference' }));
    expect(fixed).toMatchObject({ state: 'completed', verdict: 'passed' });
    const runs = await env.deps.repos.ci.runsOf(String(fixed.id));
    const artifacts = await env.deps.backend.listArtifacts({ repoFullName: runs[0]!.repoFullName, runId: runs[0]!.githubRunId.toString(), runAttempt: 1 });
    expect(artifacts.map((artifact) => artifact.name)).toContain('junit');
  }, 180_000);

  it('cancelling a running submission kills its run and ends it as cancelled', async () => {
    const row = { ...demo.instances[2]!.row, id: 'demo-slow', workflow_template: 'python-pytest', python_version: '3.11', install_command: 'true', template_values: { test_command: 'sleep 120; python -m pytest -q tests' } };
    await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify(row)}\n` });
    const id = await submit({ instanceId: row.id, kind: 'reference' });
    await waitFor(async () => ((await api.app.inject({ url: `/v1/submissions/${id}`, headers: api.auth(api.operator) })).json().state === 'running' ? true : undefined), { timeoutMs: 60_000 });
    const started = Date.now();
    expect((await api.app.inject({ method: 'POST', url: `/v1/submissions/${id}/cancel`, headers: api.auth(api.submitter) })).statusCode).toBe(404);
    const cancel = await api.app.inject({ method: 'POST', url: `/v1/submissions/${id}/cancel`, headers: api.auth(api.operator) });
    expect(cancel.statusCode).toBe(202);
    const result = await finished(id);
    expect(result).toMatchObject({ state: 'cancelled', verdict: 'invalid', outcome: 'cancelled', reason: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 180_000);

  it('re-validation replays the unpatched commit and the ground truth and records the instance as healthy', async () => {
    const started = await api.app.inject({ method: 'POST', url: '/v1/instances/demo-lint/revalidate', headers: api.auth(api.operator), payload: { repeats: 1 } });
    expect(started.statusCode).toBe(202);
    const { submissionIds } = started.json();
    expect(submissionIds).toHaveLength(2);
    for (const id of submissionIds) await finished(id);
    expect(await settleRevalidations({ repos: env.deps.repos, submissions: env.deps.submissions, logger: env.logger })).toBe(1);
    const history = (await api.app.inject({ url: '/v1/instances/demo-lint/revalidations', headers: api.auth(api.submitter) })).json();
    expect(history.items[0]).toMatchObject({ status: 'completed', result: 'healthy', details: { counts: { baselineFailed: 1, referencePassed: 1 } } });
    expect((await api.app.inject({ url: '/v1/instances/demo-lint', headers: api.auth(api.submitter) })).json().health).toBe('healthy');
    const forbidden = await api.app.inject({ method: 'POST', url: '/v1/instances/demo-lint/revalidate', headers: api.auth(api.submitter) });
    expect(forbidden.statusCode).toBe(403);
  }, 180_000);

  it('a patch that weakens the target workflow is reverted by default (and fails); with the dataset policy off its edit is kept and standardized', async () => {
    const workflow = String(demo.instances[0]!.row.workflow).split('\n');
    const index = workflow.findIndex((line) => line.includes('run: flake8 calc tests'));
    const context = workflow.slice(index - 1, index + 2);
    const patch = [
      'diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml',
      '--- a/.github/workflows/ci.yml',
      '+++ b/.github/workflows/ci.yml',
      `@@ -${index},3 +${index},3 @@`,
      ` ${context[0]}`,
      `-${context[1]}`,
      `+${context[1]!.replace('flake8 calc tests', 'flake8 --extend-ignore=F401 calc tests')}`,
      ` ${context[2]}`,
      '',
    ].join('\n');
    const reverted = await finished(await submit({ instanceId: 'demo-lint', patch }));
    expect(reverted).toMatchObject({ state: 'completed', verdict: 'failed', revertedFiles: ['.github/workflows/ci.yml'] });
    expect((await jobsOf(String(reverted.id))).find((job) => job.name === 'lint')).toMatchObject({ conclusion: 'failure', failedStep: 'Lint with flake8' });
    expect((reverted.standardization as { protection: unknown }).protection).toEqual({
      policy: 'ground-truth', reverted: [{ path: '.github/workflows/ci.yml', why: 'CI configuration (.github/**): the ground truth does not edit this file' }], kept: [],
    });
    const policy = (protection: string) => api.app.inject({ method: 'PUT', url: '/v1/datasets/ci-repair-bench/policy', headers: api.auth(api.operator), payload: { protection } });
    expect((await policy('off')).statusCode).toBe(200);
    const result = await finished(await submit({ instanceId: 'demo-lint', patch })).finally(() => policy('ground-truth'));
    expect(result).toMatchObject({ state: 'completed', verdict: 'passed', revertedFiles: [] });
    const report = (result.standardization as { report: { action: string; target: string; reason: string }[] }).report;
    expect(report).toContainEqual(expect.objectContaining({ target: '.github/workflows/ci.yml', reason: expect.stringContaining('the patched workflow was standardized') }));
    expect(report).toContainEqual(expect.objectContaining({ action: 'removed-job', target: 'jobs.publish' }));
  }, 180_000);

  it('the committed example instance file matches the generated history, and the bundled candidates behave as documented', async () => {
    const committed = (await readFile(COMMITTED_INSTANCES, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    expect(committed).toEqual(demo.instances.map(({ row }) => {
      const { upstream_url: _omitted, ...rest } = row;
      return rest;
    }));
    const ids = await Promise.all(demo.instances.map(async (instance) => ({ instance: instance.id, id: await submit({ instanceId: instance.id, patch: instance.candidate }) })));
    for (const { instance, id } of ids) {
      const result = await finished(id);
      if (instance === 'demo-assertion') {
        // The candidate edits the test instead of the code: the protected path reverts it, and the test still fails.
        expect(result).toMatchObject({ state: 'completed', verdict: 'failed', revertedFiles: ['tests/test_core.py'] });
      } else {
        expect(result, instance).toMatchObject({ state: 'completed', verdict: 'passed' });
      }
    }
  }, 180_000);

  it('grades a SWE-sweep candidate end to end: visible suite, one hidden-test subtask run, sweep-json report', async () => {
    const hidden = ['diff --git a/tests/test_hidden.py b/tests/test_hidden.py', 'new file mode 100644', '--- /dev/null', '+++ b/tests/test_hidden.py', '@@ -0,0 +1,5 @@',
      '+from calc import multiply', '+', '+', '+def test_hidden():', '+    assert multiply(3, 4) == 12', ''].join('\n');
    const row = {
      ...demo.instances[2]!.row, id: 'demo-sweep', protected_paths: [], workflow_template: 'python-pytest', python_version: '3.11', install_command: 'true',
      template_values: { test_command: 'python -m pytest -q tests' },
      base_passing_tests: ['tests/test_core.py::test_add', 'tests/test_core.py::test_describe'],
      subtasks: [{ id: 'multiply', testPatch: hidden, tests: ['tests/test_hidden.py::test_hidden'] }],
    };
    await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: `${JSON.stringify(row)}\n` });
    const run = (await api.app.inject({ method: 'POST', url: '/v1/runs', headers: api.auth(api.submitter), payload: { label: 'sweep-model' } })).json();
    const candidate = await submit({ instanceId: row.id, patch: demo.instances[2]!.patch, runId: run.id });
    expect(await finished(candidate)).toMatchObject({ state: 'completed', verdict: 'passed' });
    const started = await api.app.inject({ method: 'POST', url: `/v1/submissions/${candidate}/subtasks`, headers: api.auth(api.submitter) });
    expect(started.statusCode, started.body).toBeLessThan(300);
    const subtaskIds = (started.json().subtasks ?? started.json()).map((entry: { submissionId: string }) => entry.submissionId);
    expect(subtaskIds).toHaveLength(1);
    expect(await finished(subtaskIds[0])).toMatchObject({ state: 'completed', verdict: 'passed' });
    const report = await api.app.inject({ url: `/v1/runs/${run.id}/report?format=sweep-json`, headers: api.auth(api.submitter) });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json().summary).toMatchObject({ graded_tasks: 1, graded_bugs: 1, resolved_bugs: 1, score: 1, score_ignoring_regressions: 1, evaluation_failures: 0 });
    expect(report.json().tasks).toEqual([expect.objectContaining({ task: 'demo-sweep', n_subtasks: 1, n_resolved: 1, regressed: false, reward: 1 })]);

    // A candidate that fixes multiply but breaks add: the hidden test passes, the regression gate zeroes the task.
    const breakAdd = ['diff --git a/calc/core.py b/calc/core.py', '--- a/calc/core.py', '+++ b/calc/core.py', '@@ -3,12 +3,12 @@', ' ', ' def add(a: int, b: int) -> int:',
      '     """Return the sum of a and b."""', '-    return a + b', '+    return a - b', ' ', ' ', ' def multiply(a: int, b: int) -> int:', '     """Return the product of a and b."""',
      '-    return a + b', '+    return a * b', ' ', ' ', ' def describe(value: int) -> str:', ''].join('\n');
    const otherRun = (await api.app.inject({ method: 'POST', url: '/v1/runs', headers: api.auth(api.submitter), payload: { label: 'sweep-regressing' } })).json();
    const broken = await submit({ instanceId: row.id, runId: otherRun.id, patch: breakAdd });
    expect(await finished(broken)).toMatchObject({ state: 'completed', verdict: 'failed' });
    const brokenSubtasks = (await api.app.inject({ method: 'POST', url: `/v1/submissions/${broken}/subtasks`, headers: api.auth(api.submitter) })).json();
    for (const entry of brokenSubtasks.subtasks ?? brokenSubtasks) await finished(entry.submissionId);
    const regressed = (await api.app.inject({ url: `/v1/runs/${otherRun.id}/report?format=sweep-json`, headers: api.auth(api.submitter) })).json();
    expect(regressed.summary).toMatchObject({ graded_bugs: 1, resolved_bugs: 0, score: 0, score_ignoring_regressions: 1 });
    expect(regressed.tasks).toEqual([expect.objectContaining({ task: 'demo-sweep', regressed: true, reward: 0 })]);
  }, 180_000);

  it('a patch that does not apply ends as patch_failed with git\'s message, and nothing is pushed', async () => {
    const patch = demo.instances[0]!.patch.replace('-import os', '-import sys');
    const id = await submit({ instanceId: 'demo-lint', patch });
    const result = await finished(id);
    expect(result).toMatchObject({ state: 'patch_failed', verdict: 'invalid', outcome: 'patch_failed', reason: 'patch_does_not_apply', headSha: null });
    expect(String(result.error)).toMatch(/patch (failed|does not apply)/);
    expect(await env.deps.repos.ci.runsOf(id)).toEqual([]);
  }, 180_000);
});
