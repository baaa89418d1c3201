import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, type Demo } from '../../examples/build-demo.js';
import { createWorkers, type Workers } from '../../src/workers.js';
import { createApiHarness, type ApiHarness } from '../support/api-client.js';
import { createTestEnv, type TestEnv } from '../support/test-env.js';
import { waitFor } from '../support/wait-for.js';

const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

/**
 * Outcomes end to end (API → worker → local executor → judge → finalize → report): a replay whose install step
 * cannot reach its package index is the platform's `infra_error` (network_unreachable), never a failed repair; a
 * replay whose tests fail is the repository's `failed`. The cause is one a preflight cannot see in advance: the
 * index host (`.invalid`, RFC 2606) only fails to resolve when the step runs.
 */
describe('outcomes: the patch apart from the platform (local backend)', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let workers: Workers;
  let demo: Demo;

  const offlineInstall =
    'python -m pip download --no-deps --dest "$RUNNER_TEMP/dl" --retries 1 --timeout 3 --trusted-host nosuchhost.invalid --index-url http://nosuchhost.invalid/simple nosuchpkg';

  beforeAll(async () => {
    env = await createTestEnv({ WORKER_CONCURRENCY: '2' });
    api = await createApiHarness(env);
    demo = await buildDemo(join(env.dataDir, 'examples'));
    const assertion = demo.instances.find((instance) => instance.id === 'demo-assertion');
    if (assertion === undefined) throw new Error('demo-assertion missing');
    const template = { workflow_template: 'python-pytest', python_version: '3.11', template_values: { test_command: 'python -m pytest -q tests' } };
    const rows = [
      { ...assertion.row, id: 'outcome-offline', ...template, install_command: offlineInstall },
      { ...assertion.row, id: 'outcome-tests', ...template, install_command: 'python -m pip --version' },
    ];
    const imported = await api.app.inject({
      method: 'POST',
      url: '/v1/instances:import',
      headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' },
      body: rows.map((row) => JSON.stringify(row)).join('\n'),
    });
    expect(imported.json()).toMatchObject({ created: 2, failed: 0 });
    workers = await createWorkers(env.deps);
  });
  afterAll(async () => {
    await workers?.close();
    await api?.app.close();
    await env?.cleanup();
  });

  async function submit(payload: Record<string, unknown>): Promise<string> {
    const response = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(api.submitter), payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id;
  }

  async function finished(id: string): Promise<Record<string, unknown>> {
    const read = async () => (await api.app.inject({ url: `/v1/submissions/${id}`, headers: api.auth(api.submitter) })).json();
    return waitFor(
      async () => {
        const body = await read();
        return TERMINAL.includes(body.state) && (body.state !== 'completed' || body.verdict !== null) ? body : undefined;
      },
      { timeoutMs: 120_000, describe: read },
    );
  }

  async function archivedLine(submissionId: string, jobName: string, line: number): Promise<string | undefined> {
    const runs = await env.deps.repos.ci.runsOf(submissionId);
    const job = (await env.deps.repos.ci.jobsOfRun(runs[0]!.id)).find((candidate) => candidate.name === jobName);
    const stored = job?.log === null || job === undefined ? null : await env.deps.logStore.open(job.log.storageKey);
    if (stored === null) return undefined;
    let text = '';
    for await (const chunk of stored) text += String(chunk);
    return text.split('\n')[line - 1]?.replace(/^\S+Z /, '');
  }

  it('an install step that cannot reach its index ends infra_error (network_unreachable) with the step and the lines that prove it', async () => {
    const id = await submit({ instanceId: 'outcome-offline', kind: 'baseline' });
    const result = await finished(id);
    expect(result).toMatchObject({
      state: 'infra_error',
      verdict: 'invalid',
      outcome: 'infra_error',
      reason: 'network_unreachable',
      reasonDetails: { job: 'test', step: 'Install', rule: 'network-unreachable' },
    });
    const details = result.reasonDetails as { lines: { line: number; text: string }[] };
    expect(details.lines.some((line) => /NewConnectionError|Failed to establish a new connection|name resolution|Name or service not known/.test(line.text))).toBe(true);
    // The evidence names lines of the archived log.
    for (const line of details.lines) expect(await archivedLine(id, 'test', line.line)).toBe(line.text);

    const jobs = (await api.app.inject({ url: `/v1/submissions/${id}/jobs`, headers: api.auth(api.submitter) })).json();
    expect(jobs.runs[0]).toMatchObject({ outcome: 'infra_error', outcomeReason: 'network_unreachable' });
    expect(jobs.runs[0].jobs).toEqual([
      expect.objectContaining({ name: 'test', conclusion: 'failure', failedStep: 'Install', outcome: 'infra_error', outcomeReason: 'network_unreachable', outcomeEvidence: expect.objectContaining({ step: 'Install' }) }),
    ]);
  });

  it('a test step whose tests fail ends failed: the repository\'s own failure, with the failing step as evidence', async () => {
    const id = await submit({ instanceId: 'outcome-tests', kind: 'baseline' });
    const result = await finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed', outcome: 'failed', reason: null, reasonDetails: { job: 'test', step: 'Test' } });
    const jobs = (await api.app.inject({ url: `/v1/submissions/${id}/jobs`, headers: api.auth(api.submitter) })).json();
    expect(jobs.runs[0]).toMatchObject({ outcome: 'failed' });
    expect(jobs.runs[0].jobs[0]).toMatchObject({ name: 'test', outcome: 'failed', outcomeReason: 'step_failed' });
  });

  it('the run report keeps the infra error out of the repair failures and shows both rates', async () => {
    const run = (await api.app.inject({ method: 'POST', url: '/v1/runs', headers: api.auth(api.submitter), payload: { label: 'outcomes-model' } })).json();
    const assertion = demo.instances.find((instance) => instance.id === 'demo-assertion')!;
    const offline = await submit({ instanceId: 'outcome-offline', patch: assertion.patch, runId: run.id });
    const tests = await submit({ instanceId: 'outcome-tests', patch: assertion.candidate, runId: run.id });
    expect(await finished(offline)).toMatchObject({ state: 'infra_error', outcome: 'infra_error', reason: 'network_unreachable' });
    expect(await finished(tests)).toMatchObject({ state: 'completed', outcome: 'failed' });

    const json = await api.app.inject({ url: `/v1/runs/${run.id}/report?format=json`, headers: api.auth(api.submitter) });
    expect(json.statusCode, json.body).toBe(200);
    const report = json.json();
    const scope = report.scope.instances as number;
    expect(scope).toBeGreaterThanOrEqual(2);
    expect(report.runs[0]).toMatchObject({
      passed: 0,
      evaluated: 1,
      repairFailures: 1,
      notEvaluated: scope - 1,
      notRepaired: { failed: 1, patch_failed: 0, infra_error: 1, no_submission: scope - 2 },
      successRateStrict: { count: 0, total: scope, percent: 0 },
      successRateEvaluated: { count: 0, total: 1, percent: 0 },
      notEvaluatedReasons: [{ outcome: 'infra_error', reason: 'network_unreachable', count: 1 }],
    });
    expect(report.definitions.successRateStrict).toContain('all instances in scope');

    const instances = (await api.app.inject({ url: `/v1/runs/${run.id}/report?format=json&by=instance`, headers: api.auth(api.submitter) })).json();
    const byId = Object.fromEntries((instances.byInstance as { id: string; runs: { outcome: string; reason: string | null }[] }[]).map((row) => [row.id, row.runs[0]]));
    expect(byId['outcome-offline']).toMatchObject({ outcome: 'infra_error', reason: 'network_unreachable' });
    expect(byId['outcome-tests']).toMatchObject({ outcome: 'failed' });

    const csv = (await api.app.inject({ url: `/v1/runs/${run.id}/report?format=csv`, headers: api.auth(api.submitter) })).body.split('\r\n');
    const header = csv[0]!.split(',');
    const row = csv[1]!.split(',');
    expect(row[header.indexOf('Not evaluated: infra_error')]).toBe('1');
    expect(row[header.indexOf('Repair failed: failed')]).toBe('1');
    expect(row[header.indexOf('Success % evaluated (passed / evaluated)')]).toBe('0.0');
    expect(row[header.indexOf('Success % strict (passed / all in scope)')]).toBe('0.0');
  });
});
