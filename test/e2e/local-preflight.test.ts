import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo, type Demo } from '../../examples/build-demo.js';
import { createWorkers, type Workers } from '../../src/workers.js';
import { createApiHarness, type ApiHarness } from '../support/api-client.js';
import { createTestEnv, type TestEnv } from '../support/test-env.js';
import { waitFor } from '../support/wait-for.js';

const run = promisify(execFile);
const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

/** The demo's test job with a Postgres service container and the URL that reaches it, as Django/SQLAlchemy projects have. */
const SERVICES = [
  '  test:',
  '    runs-on: ubuntu-latest',
  '    services:',
  '      postgres:',
  '        image: postgres:16',
  '        env:',
  '          POSTGRES_PASSWORD: postgres',
  '        ports:',
  '          - 5432:5432',
  '        options: --health-cmd pg_isready --health-interval 10s --health-timeout 5s --health-retries 5',
  '    env:',
  '      DATABASE_URL: postgresql://postgres:postgres@localhost:5432/calc',
  '',
].join('\n');

describe('preflight in the pipeline (API → worker → local backend): a workflow the executor cannot run is never pushed', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let workers: Workers;
  let demo: Demo;

  beforeAll(async () => {
    env = await createTestEnv({ WORKER_CONCURRENCY: '2' });
    api = await createApiHarness(env);
    demo = await buildDemo(join(env.dataDir, 'examples'));
    const lint = demo.instances.find((instance) => instance.id === 'demo-lint')!;
    const workflow = String(lint.row.workflow);
    expect(workflow).toContain('  test:\n    runs-on: ubuntu-latest\n');
    const withService = { ...lint.row, id: 'demo-lint-postgres', workflow: workflow.replace('  test:\n    runs-on: ubuntu-latest\n', SERVICES) };
    const body = `${demo.jsonl}${JSON.stringify(withService)}\n`;
    const imported = await api.app.inject({ method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body });
    expect(imported.json()).toMatchObject({ created: 5, failed: 0 });
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

  async function finished(token: string, id: string): Promise<Record<string, unknown>> {
    const read = async () => (await api.app.inject({ url: `/v1/submissions/${id}`, headers: api.auth(token) })).json();
    return waitFor(async () => {
      const body = await read();
      return TERMINAL.includes(body.state) && (body.state !== 'completed' || body.verdict !== null) ? body : undefined;
    }, { timeoutMs: 120_000, describe: read });
  }

  async function benchBranches(): Promise<string[]> {
    const bare = join(env.dataDir, 'bench', 'ci-replay-examples--calc.git');
    if (!existsSync(bare)) return [];
    const { stdout } = await run('git', ['for-each-ref', '--format=%(refname)', 'refs/heads/ci-replay/'], { cwd: bare });
    return stdout.split('\n').filter(Boolean);
  }

  it('a baseline of an instance with a services: postgres block ends infra_error / not_replayable, lists the blockers, pushes and runs nothing', async () => {
    const id = await submit(api.submitter, { instanceId: 'demo-lint-postgres', kind: 'baseline' });
    const result = await finished(api.submitter, id);
    expect(result).toMatchObject({ state: 'infra_error', verdict: 'invalid', reason: 'not_replayable', branch: null, headSha: null });
    expect(String(result.error)).toMatch(/^not replayable on the local backend: 2 blockers \(service_container, localhost_service_url\)/);

    const row = await env.deps.repos.submissions.get(id);
    expect(row).toMatchObject({ outcome: 'infra_error', reason: 'not_replayable', publishedAt: null, startedAt: null });
    const details = row?.reasonDetails as { backend: string; blockers: { code: string; job: string; evidence?: string; message: string }[] };
    expect(details.backend).toBe('local');
    expect(details.blockers.map((blocker) => [blocker.code, blocker.job, blocker.evidence])).toEqual([
      ['service_container', 'test', 'postgres:16'],
      ['localhost_service_url', 'test', 'postgresql://postgres:postgres@localhost:5432'],
    ]);
    expect(details.blockers[0]?.message).toBe('job test needs the service container "postgres" (postgres:16); the local executor cannot start service containers');

    const standardization = result.standardization as { preflight: { backend: string; blockers: unknown[] }; markdown: string };
    expect(standardization.preflight).toEqual({ backend: 'local', blockers: details.blockers });
    expect(standardization.markdown).toContain('## Preflight (local backend)');
    expect(standardization.markdown).toContain('| `service_container` | `test` |');

    expect(await env.deps.repos.ci.runsOf(id)).toEqual([]);
    expect(await benchBranches()).toEqual([]);
    const jobs = (await api.app.inject({ url: `/v1/submissions/${id}/jobs`, headers: api.auth(api.submitter) })).json();
    expect(jobs.runs).toEqual([]);
  });

  it('the ground truth goes through the same preflight; a workflow without blockers records an empty list and runs', async () => {
    const reference = await finished(api.operator, await submit(api.operator, { instanceId: 'demo-lint-postgres', kind: 'reference' }));
    expect(reference).toMatchObject({ state: 'infra_error', verdict: 'invalid', reason: 'not_replayable', branch: null });

    const id = await submit(api.submitter, { instanceId: 'demo-format', kind: 'baseline' });
    const plain = await finished(api.submitter, id);
    expect(plain).toMatchObject({ state: 'completed', verdict: 'failed', branch: `ci-replay/baseline/${id}` });
    expect((plain.standardization as { preflight: unknown }).preflight).toEqual({ backend: 'local', blockers: [] });
    expect((plain.standardization as { markdown: string }).markdown).toContain('Nothing in the workflow is beyond what this backend can run.');
    expect(await env.deps.repos.ci.runsOf(id)).toHaveLength(1);
    expect(await benchBranches()).toEqual([`refs/heads/ci-replay/baseline/${id}`]);
  });
});
