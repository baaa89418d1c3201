import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, type Demo } from '../../examples/build-demo.js';
import { createWorkers, type Workers } from '../../src/workers.js';
import { createApiHarness, type ApiHarness } from '../support/api-client.js';
import { createTestEnv, type TestEnv } from '../support/test-env.js';
import { waitFor } from '../support/wait-for.js';

const exec = promisify(execFile);

/** A patch of the demo's workflow at `sha`: `from` replaced by `to` in the flake8 step (made with git itself). */
async function workflowPatch(upstream: string, sha: string, workDir: string, from: string, to: string): Promise<string> {
  const clone = await mkdtemp(join(workDir, 'wf-'));
  await exec('git', ['clone', '-q', upstream, clone]);
  await exec('git', ['-C', clone, 'checkout', '-q', sha]);
  const path = join(clone, '.github/workflows/ci.yml');
  const text = await readFile(path, 'utf8');
  if (!text.includes(from)) throw new Error(`the demo workflow has no "${from}"`);
  await writeFile(path, text.replace(from, to));
  return (await exec('git', ['-C', clone, 'diff'])).stdout;
}

const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

/** A git patch creating `path` with `text`. */
function newFilePatch(path: string, text: string): string {
  const lines = text.replace(/\n$/, '').split('\n');
  return [
    `diff --git a/${path} b/${path}`,
    'new file mode 100644',
    'index 0000000..1111111',
    '--- /dev/null',
    `+++ b/${path}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((line) => `+${line}`),
    '',
  ].join('\n');
}

/** A root conftest.py that turns every failing test's report into a pass (the outcome is forged, the test ran). */
const FLIP_FAILURES = `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        report.outcome = "passed"
`;

/** A root conftest.py that deselects the failing test (it never runs; the rest pass). */
const DESELECT_FAILING = `def pytest_collection_modifyitems(config, items):
    kept = [item for item in items if "multiply" not in item.name]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept
`;

/**
 * Issue 12, "patches cannot weaken the CI that judges them", end to end (API → worker → local executor →
 * finalize): a forging root conftest.py is reverted by the default policy (the test still fails); with the policy
 * off, a conftest.py that deselects the failing test passes the workflow but is caught from the results
 * (`tests_not_run`, listing the test the reference run executed); the honest fix passes.
 */
describe('anti-tampering end to end (local backend)', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let workers: Workers;
  let demo: Demo;
  let groundTruthWorkflowEdit = '';
  let neutered = '';

  beforeAll(async () => {
    env = await createTestEnv({ WORKER_CONCURRENCY: '2' });
    api = await createApiHarness(env);
    demo = await buildDemo(join(env.dataDir, 'examples'));
    const assertion = demo.instances.find((instance) => instance.id === 'demo-assertion');
    if (assertion === undefined) throw new Error('demo-assertion missing');
    const template = { workflow_template: 'python-pytest', python_version: '3.11', install_command: 'python -m pip --version', template_values: { test_command: 'python -m pytest -q tests' } };
    const { protected_paths: _protected, ...row } = assertion.row as Record<string, unknown>;
    const importRows = async (rows: object[], dataset: string): Promise<void> => {
      const imported = await api.app.inject({
        method: 'POST',
        url: `/v1/instances:import?dataset=${dataset}`,
        headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' },
        body: rows.map((value) => JSON.stringify(value)).join('\n'),
      });
      expect(imported.json(), imported.body).toMatchObject({ failed: 0 });
    };
    await importRows([{ ...row, id: 'tamper-default', ...template }], 'tamper-default');
    await importRows([{ ...row, id: 'tamper-off', ...template }], 'tamper-off');
    // A lint instance whose ground truth is a workflow edit (a Configuration-Error-style fix): flake8 told to
    // ignore the unused import.
    const lint = demo.instances.find((instance) => instance.id === 'demo-lint');
    if (lint === undefined) throw new Error('demo-lint missing');
    const sanctioned = await workflowPatch(demo.upstreamPath, String(lint.row.sha_fail), env.dataDir, 'run: flake8 calc tests', 'run: flake8 --extend-ignore=F401 calc tests');
    neutered = await workflowPatch(demo.upstreamPath, String(lint.row.sha_fail), env.dataDir, 'run: flake8 calc tests', 'run: flake8 calc tests || true');
    groundTruthWorkflowEdit = sanctioned;
    await importRows([{ ...(lint.row as Record<string, unknown>), id: 'tamper-workflow', diff: sanctioned }], 'tamper-default');
    const policy = await api.app.inject({ method: 'PUT', url: '/v1/datasets/tamper-off/policy', headers: api.auth(api.operator), payload: { protection: 'off' } });
    expect(policy.statusCode, policy.body).toBe(200);
    workers = await createWorkers(env.deps);
  });
  afterAll(async () => {
    await workers?.close();
    await api?.app.close();
    await env?.cleanup();
  });

  async function submit(token: string, payload: Record<string, unknown>): Promise<string> {
    const response = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(token), payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id;
  }

  async function finished(id: string): Promise<Record<string, unknown>> {
    const read = async () => (await api.app.inject({ url: `/v1/submissions/${id}`, headers: api.auth(api.operator) })).json();
    return waitFor(
      async () => {
        const body = await read();
        return TERMINAL.includes(body.state) && (body.state !== 'completed' || body.verdict !== null) ? body : undefined;
      },
      { timeoutMs: 120_000, describe: read },
    );
  }

  it('the reference runs pass and record which tests they executed', async () => {
    for (const instanceId of ['tamper-default', 'tamper-off']) {
      const id = await submit(api.operator, { instanceId, kind: 'reference' });
      expect(await finished(id), instanceId).toMatchObject({ state: 'completed', verdict: 'passed', outcome: 'passed' });
      const tests = await env.deps.repos.testEvidence.latestReference(instanceId, { withResults: true });
      expect(tests?.id).toBe(id);
    }
  });

  it('a root conftest.py forging test outcomes is reverted by the default policy: the test still fails', async () => {
    const id = await submit(api.submitter, { instanceId: 'tamper-default', patch: newFilePatch('conftest.py', FLIP_FAILURES) });
    const result = await finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed', outcome: 'failed', revertedFiles: ['conftest.py'] });
    const protection = (result.standardization as { protection: { policy: string; reverted: { path: string; why: string }[] } }).protection;
    expect(protection.policy).toBe('ground-truth');
    expect(protection.reverted).toEqual([expect.objectContaining({ path: 'conftest.py', why: expect.stringContaining('conftest') })]);
  });

  it('with the policy off, a conftest.py deselecting the failing test passes the workflow but ends failed: tests_not_run', async () => {
    const id = await submit(api.submitter, { instanceId: 'tamper-off', patch: newFilePatch('conftest.py', DESELECT_FAILING) });
    const result = await finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed', outcome: 'failed', reason: 'tests_not_run', revertedFiles: [] });
    const runs = await env.deps.repos.ci.runsOf(id);
    expect(runs.map((run) => run.conclusion)).toEqual(['success']);
    const check = (result.reasonDetails as { testsCheck: { basis: string; missing: string[] } }).testsCheck;
    expect(check.basis).toBe('junit');
    expect(check.missing).toHaveLength(1);
    expect(check.missing[0]).toContain('test_multiply');
  });

  it('a workflow edit the ground truth makes too is kept and judged; one that weakens the check is reverted', async () => {
    const kept = await submit(api.submitter, { instanceId: 'tamper-workflow', patch: groundTruthWorkflowEdit });
    const keptResult = await finished(kept);
    expect(keptResult).toMatchObject({ state: 'completed', verdict: 'passed', outcome: 'passed', revertedFiles: [] });
    const keptProtection = (keptResult.standardization as { protection: { kept: { path: string }[] } }).protection;
    expect(keptProtection.kept).toEqual([expect.objectContaining({ path: '.github/workflows/ci.yml' })]);

    const reverted = await submit(api.submitter, { instanceId: 'tamper-workflow', patch: neutered });
    const revertedResult = await finished(reverted);
    expect(revertedResult).toMatchObject({ state: 'completed', verdict: 'failed', outcome: 'failed', revertedFiles: ['.github/workflows/ci.yml'] });
    const why = (revertedResult.standardization as { protection: { reverted: { path: string; why: string }[] } }).protection.reverted[0]?.why;
    expect(why).toContain('Lint with flake8');
    const runs = await env.deps.repos.ci.runsOf(reverted);
    const lint = (await env.deps.repos.ci.jobsOfRun(runs[0]!.id)).find((job) => job.name === 'lint');
    expect(lint).toMatchObject({ conclusion: 'failure', failedStep: 'Lint with flake8' });
  });

  it('the honest fix passes, and the check says what it compared', async () => {
    const assertion = demo.instances.find((instance) => instance.id === 'demo-assertion')!;
    const id = await submit(api.submitter, { instanceId: 'tamper-off', patch: assertion.patch });
    const result = await finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'passed', outcome: 'passed' });
    expect((result.reasonDetails as { testsCheck: { basis: string } }).testsCheck.basis).toBe('junit');
  });
});
