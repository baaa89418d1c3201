import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo } from '../../examples/build-demo.js';
import { createWorkers, type Workers } from '../../src/workers.js';
import { createApiHarness, type ApiHarness } from '../support/api-client.js';
import { createTestEnv, type TestEnv } from '../support/test-env.js';
import { waitFor } from '../support/wait-for.js';

const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

/**
 * The step sandbox end to end (API → worker → local executor with the service's configuration): an instance whose
 * install step attacks the worker running it. The worker is this test process: its environment (as the kernel
 * shows it in /proc/<pid>/environ) holds vitest's variables, its DATA_DIR the benchmark repositories, and Postgres
 * and Redis listen on this host.
 */
describe('steps cannot reach the service (local backend, default sandbox settings)', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let workers: Workers;

  const port = (url: string, fallback: number): number => Number(new URL(url).port || fallback);

  beforeAll(async () => {
    env = await createTestEnv({ WORKER_CONCURRENCY: '1' });
    api = await createApiHarness(env);
    const demo = await buildDemo(join(env.dataDir, 'examples'));
    const assertion = demo.instances.find((instance) => instance.id === 'demo-assertion');
    if (assertion === undefined) throw new Error('demo-assertion missing');
    const attack = [
      'envs=$(for f in /proc/[0-9]*/environ; do tr "\\0" "\\n" 2>/dev/null < "$f" || true; done)',
      'echo "worker-variables=$(printf "%s\\n" "$envs" | grep -c -E "^(VITEST|DATABASE_URL|REDIS_URL)" || true)"',
      'echo "node-processes=$(ps -eo args= | grep -c -E "(^|/)(node|vitest)( |$)" || true)"',
      `for target in 127.0.0.1:${port(env.config.databaseUrl, 5432)} 127.0.0.1:${port(env.config.redisUrl, 6379)} [::1]:5432; do`,
      '  if timeout 3 bash -c "exec 3<>/dev/tcp/${target%:*}/${target##*:}" 2>/dev/null; then echo "tcp $target=connected"; else echo "tcp $target=refused"; fi',
      'done',
      'if (echo x > /etc/ci-replay-e2e) 2>/dev/null; then echo etc=written; else echo etc=denied; fi',
      `echo "data-dir-entries=$(ls -A ${env.dataDir} 2>/dev/null | paste -sd, -)"`,
      `if (echo x > ${env.dataDir}/written-by-a-step) 2>/dev/null; then echo data-dir=written; else echo data-dir=denied; fi`,
      'if (echo x > workspace-file) 2>/dev/null; then echo workspace=written; else echo workspace=denied; fi',
    ].join('\n');
    const row = {
      ...assertion.row, id: 'isolation-attack', workflow_template: 'python-pytest', python_version: '3.11',
      install_command: attack, template_values: { test_command: 'python -m pytest -q tests' },
    };
    const imported = await api.app.inject({
      method: 'POST', url: '/v1/instances:import', headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' }, body: JSON.stringify(row),
    });
    expect(imported.json()).toMatchObject({ created: 1, failed: 0 });
    workers = await createWorkers(env.deps);
  });
  afterAll(async () => {
    await workers?.close();
    await api?.app.close();
    await env?.cleanup();
  });

  it("a step cannot read the worker's environment, see its processes, open Postgres or Redis, or write outside its workspace", async () => {
    // the check below means something: the worker's own environment, as the kernel shows it, has vitest's variables
    expect(readFileSync(`/proc/${process.pid}/environ`, 'utf8')).toMatch(/(^|\0)VITEST/);
    const created = await api.app.inject({ method: 'POST', url: '/v1/submissions', headers: api.auth(api.submitter), payload: { instanceId: 'isolation-attack', kind: 'baseline' } });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    const read = async () => (await api.app.inject({ url: `/v1/submissions/${id}`, headers: api.auth(api.submitter) })).json();
    const result = await waitFor(async () => {
      const body = await read();
      return TERMINAL.includes(body.state) && (body.state !== 'completed' || body.verdict !== null) ? body : undefined;
    }, { timeoutMs: 120_000, describe: read });
    // the attack itself ran to its end; the unpatched tests then fail as they should
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed' });
    const runs = await env.deps.repos.ci.runsOf(id);
    const job = (await env.deps.repos.ci.jobsOfRun(runs[0]!.id)).find((candidate) => candidate.name === 'test');
    const stored = job?.log === null || job === undefined ? null : await env.deps.logStore.open(job.log.storageKey);
    let text = '';
    for await (const chunk of stored ?? []) text += String(chunk);
    const lines = text.split('\n').map((line) => line.replace(/^\S+Z /, ''));
    expect(lines.some((line) => line.startsWith('Step sandbox: namespaces')), text).toBe(true);
    expect(lines).toEqual(expect.arrayContaining([
      'worker-variables=0',
      'node-processes=0',
      `tcp 127.0.0.1:${port(env.config.databaseUrl, 5432)}=refused`,
      `tcp 127.0.0.1:${port(env.config.redisUrl, 6379)}=refused`,
      'tcp [::1]:5432=refused',
      'etc=denied',
      // only the way to the run's own directory (its job and its read-only origin view) and to the base view that view
      // borrows from: no benchmark repositories, runs, logs, archive, mirrors
      'data-dir-entries=views,work',
      'workspace=written',
    ]));
    // (the test's DATA_DIR is under /tmp, which steps get as their own: what they write there stays in their job)
    expect(existsSync(join(env.dataDir, 'written-by-a-step'))).toBe(false);
  });
});
