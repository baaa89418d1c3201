import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, type Demo } from '../../examples/build-demo.js';
import { createWorkers, type Workers } from '../../src/workers.js';
import { createApiHarness, type ApiHarness } from '../support/api-client.js';
import { requireContainerRuntime } from '../support/container-runtime.js';
import { createTestEnv, type TestEnv } from '../support/test-env.js';
import { waitFor } from '../support/wait-for.js';

const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

// The same demo instance as local-pipeline.test.ts (host mode), with LOCAL_RUNTIME=docker: same verdict, label and jobs.
describe('the pipeline end to end on the local backend with jobs in containers', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let workers: Workers;
  let demo: Demo;

  beforeAll(async () => {
    await requireContainerRuntime();
    env = await createTestEnv({ WORKER_CONCURRENCY: '2', LOCAL_RUNTIME: 'docker' });
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

  it('the unpatched lint instance fails in the flake8 step with the Code Linting label, as in host mode', async () => {
    const response = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(api.submitter), payload: { instanceId: 'demo-lint', kind: 'baseline' } });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().id as string;
    const result = await waitFor(
      async () => {
        const body = (await api.app.inject({ url: `/v1/submissions/${id}`, headers: api.auth(api.operator) })).json();
        return TERMINAL.includes(body.state) && (body.state !== 'completed' || body.verdict !== null) ? body : undefined;
      },
      { timeoutMs: 240_000, describe: async () => (await api.app.inject({ url: `/v1/submissions/${id}`, headers: api.auth(api.operator) })).json() },
    );
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed', observedLabels: ['Code Linting'] });
    const runs = await env.deps.repos.ci.runsOf(id);
    const jobs = await env.deps.repos.ci.jobsOfRun(runs[0]!.id);
    const byName = Object.fromEntries(jobs.map((job) => [job.name, job]));
    expect(Object.keys(byName).sort()).toEqual(['format', 'lint', 'test (3.11)']);
    expect(byName.lint).toMatchObject({ conclusion: 'failure', failedStep: 'Lint with flake8' });
    expect(byName.format?.conclusion).toBe('success');
    expect(byName['test (3.11)']?.conclusion).toBe('success');
    const stored = await env.deps.logStore.open(byName.lint!.log!.storageKey);
    let text = '';
    for await (const chunk of stored!) text += chunk;
    expect(text).toContain('Linux (container: docker)');
    expect(text).toContain("F401 'os' imported but unused");
    expect(text).toContain('##[error]Process completed with exit code 1.');
    const labels = await env.deps.repos.ci.labelsOf(id);
    expect(labels.map((label) => [label.type, label.tool])).toEqual([['Code Linting', 'flake8']]);
  });
});
