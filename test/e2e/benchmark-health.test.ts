import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkers, type Workers } from '../../src/workers.js';
import { createApiHarness, type ApiHarness } from '../support/api-client.js';
import { createFixtureRepo, makePatch } from '../support/git-fixtures.js';
import { createTestEnv, type TestEnv } from '../support/test-env.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Benchmark health end to end on the local backend (API → scheduler → worker → executor → judge → lifecycle), one
 * generated repository per verdict, tiny shell workflows. The environment a test "reads" is a control directory the
 * harness changes between re-validations (the steps run unsandboxed here, so they see it).
 */
describe('benchmark health: verdicts, lifecycle and budget (local backend)', () => {
  let env: TestEnv;
  let api: ApiHarness;
  let workers: Workers;
  let control = '';
  const rows: Record<string, Record<string, unknown>> = {};

  const workflow = (jobs: Record<string, string>, runsOn = 'ubuntu-latest'): string =>
    [
      'name: CI',
      'on: push',
      'jobs:',
      ...Object.entries(jobs).flatMap(([name, script]) => [
        `  ${name}:`,
        `    runs-on: ${runsOn}`,
        '    steps:',
        '      - uses: actions/checkout@v4',
        `      - name: Run ${name}`,
        `        run: sh ${script}`,
      ]),
      '',
    ].join('\n');

  /** An instance from two generated commits: `fail` (sha_fail) and `fix` (sha_success); the ground truth is their diff. */
  async function instance(id: string, options: { workflow: string; fail: Record<string, string>; fix: Record<string, string>; failedJob?: string; diff?: string }): Promise<Record<string, unknown>> {
    const repo = await createFixtureRepo(join(env.dataDir, 'upstreams', `${id}.git`), [
      { message: 'failing', files: { '.github/workflows/ci.yml': options.workflow, ...options.fail } },
      { message: 'fix', files: options.fix },
    ]);
    const row = {
      id,
      repo_owner: 'health',
      repo_name: id,
      workflow_path: '.github/workflows/ci.yml',
      workflow: options.workflow,
      sha_fail: repo.shas[0],
      sha_success: repo.shas[1],
      diff: options.diff ?? (await makePatch(repo.gitDir, repo.shas[0]!, repo.shas[1]!)),
      logs: [{ step_name: options.failedJob ?? 'test', log: 'the recorded failure' }],
      error_type: ['Test Failure'],
      upstream_url: repo.gitDir,
    };
    rows[id] = row;
    return row;
  }

  async function importRows(list: Record<string, unknown>[]): Promise<Record<string, unknown>> {
    const response = await api.app.inject({
      method: 'POST',
      url: '/v1/instances:import',
      headers: { ...api.auth(api.operator), 'content-type': 'application/x-ndjson' },
      body: list.map((row) => JSON.stringify(row)).join('\n'),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  }

  beforeAll(async () => {
    env = await createTestEnv({
      WORKER_CONCURRENCY: '2',
      EXECUTOR_SANDBOX: 'off',
      EXECUTOR_NETWORK: 'none',
      REVALIDATE_MAX_CONCURRENT: '2',
      REVALIDATE_TICK_SECONDS: '1',
      REVALIDATE_REPEATS: '3',
    });
    api = await createApiHarness(env);
    control = join(env.dataDir, 'control');
    await mkdir(control, { recursive: true });
    await writeFile(join(control, 'mode'), 'old\n');
    const list = [
      await instance('h-ok', { workflow: workflow({ test: 'check.sh' }), fail: { 'check.sh': 'echo "AssertionError: 1 != 2"; exit 1\n' }, fix: { 'check.sh': 'echo ok\n' } }),
      await instance('h-flaky', {
        workflow: workflow({ test: 'check.sh' }),
        fail: { 'check.sh': 'echo "AssertionError: 1 != 2"; exit 1\n' },
        // The fixed test fails once each time the harness drops a fail-once file (a flaky network test).
        fix: { 'check.sh': `if rm "${control}/fail-once" 2>/dev/null; then echo "TimeoutError: the network test timed out"; exit 1; fi\necho ok\n` },
      }),
      await instance('h-drift', {
        workflow: workflow({ test: 'check.sh', lint: 'lint.sh' }),
        // The environment (mode) decides where the unpatched commit fails: in `test` (old, as recorded) or in `lint` (new).
        fail: {
          'check.sh': `if [ "$(cat "${control}/mode")" = old ]; then echo "AssertionError: 1 != 2"; exit 1; fi\necho ok\n`,
          'lint.sh': `if [ "$(cat "${control}/mode")" = new ]; then echo "lint.py:1:80: E501 line too long"; exit 1; fi\necho clean\n`,
        },
        fix: { 'check.sh': 'echo ok\n' },
      }),
      await instance('h-broken', { workflow: workflow({ test: 'check.sh' }), fail: { 'check.sh': 'echo "AssertionError"; exit 1\n' }, fix: { 'check.sh': 'echo ok\n' } }),
      await instance('h-windows', { workflow: workflow({ test: 'check.sh' }, 'windows-latest'), fail: { 'check.sh': 'exit 1\n' }, fix: { 'check.sh': 'echo ok\n' } }),
    ];
    expect(await importRows(list)).toMatchObject({ created: 5, failed: 0 });
    workers = await createWorkers(env.deps);
  }, 120_000);

  afterAll(async () => {
    await workers?.close();
    await api?.app.close();
    await env?.cleanup();
  });

  async function revalidate(id: string, repeats: number): Promise<string> {
    const response = await api.app.inject({ method: 'POST', url: `/v1/instances/${id}/revalidate`, headers: api.auth(api.operator), payload: { repeats } });
    expect(response.statusCode, response.body).toBe(202);
    return response.json().id;
  }

  type Revalidation = { id: string; status: string; result: string; repeats: number; submissionIds: string[]; details: Record<string, unknown> };
  async function settled(instanceId: string, revalidationId: string): Promise<Revalidation> {
    const read = async (): Promise<Revalidation | undefined> =>
      ((await api.app.inject({ url: `/v1/instances/${instanceId}/revalidations`, headers: api.auth(api.operator) })).json().items as Revalidation[]).find((row) => row.id === revalidationId);
    return waitFor(async () => {
      const row = await read();
      return row?.status === 'completed' ? row : undefined;
    }, { timeoutMs: 240_000, intervalMs: 500, describe: read });
  }

  const lifecycle = async (id: string) => (await api.app.inject({ url: `/v1/instances/${id}/lifecycle`, headers: api.auth(api.operator) })).json();

  it('judges each instance: healthy, flaky (share kept), drifted (other jobs), broken, unreplayable; and moves its lifecycle', async () => {
    await writeFile(join(control, 'fail-once'), '');
    const started = { ok: await revalidate('h-ok', 2), flaky: await revalidate('h-flaky', 3), drift: await revalidate('h-drift', 1), windows: await revalidate('h-windows', 3) };
    // Opening again while one is open returns the open one: nothing runs twice.
    expect(await revalidate('h-ok', 2)).toBe(started.ok);

    const ok = await settled('h-ok', started.ok);
    expect(ok).toMatchObject({ result: 'healthy', repeats: 2, details: { counts: { baselineFailed: 2, referencePassed: 2, baselinePassed: 0, referenceFailed: 0 } } });
    expect(ok.submissionIds).toHaveLength(4);

    const flaky = await settled('h-flaky', started.flaky);
    expect(flaky.result).toBe('flaky');
    expect(flaky.details).toMatchObject({ flakyShare: 1 / 3, flakiness: [{ side: 'reference', disagreeing: 1, of: 3 }] });
    expect(flaky.details.evidence).toEqual([expect.objectContaining({ finding: 'disagreement', side: 'reference', replays: 1, of: 3 })]);

    const drift = await settled('h-drift', started.drift);
    expect(drift.result).toBe('healthy');

    const windows = await settled('h-windows', started.windows);
    expect(windows).toMatchObject({ result: 'unreplayable', details: { stoppedEarly: true, evidence: [expect.objectContaining({ finding: 'preflight_blocked' })] } });
    // It stopped at the first refusal instead of spending the budget on 6 replays the preflight refuses.
    expect(windows.submissionIds.length).toBeLessThan(6);

    expect(await lifecycle('h-ok')).toMatchObject({ lifecycle: 'active', health: 'healthy', transitions: [] });
    expect(await lifecycle('h-flaky')).toMatchObject({ lifecycle: 'suspect', health: 'flaky', transitions: [{ from: 'active', to: 'suspect', actor: 'revalidation', revalidationId: started.flaky }] });
    expect(await lifecycle('h-windows')).toMatchObject({ lifecycle: 'suspect', health: 'unreplayable' });

    // The environment changes between re-validations: the unpatched commit now fails in `lint`, not in the recorded `test`.
    await writeFile(join(control, 'mode'), 'new\n');
    await writeFile(join(control, 'fail-once'), '');
    const again = { flaky: await revalidate('h-flaky', 3), drift: await revalidate('h-drift', 2) };
    const drifted = await settled('h-drift', again.drift);
    expect(drifted.result).toBe('drifted');
    const evidence = drifted.details.evidence as { finding: string; observed?: { jobs?: string[] }; expected?: { jobs?: string[] } }[];
    expect(evidence).toContainEqual(expect.objectContaining({ finding: 'other_jobs', side: 'baseline', replays: 2, of: 2, expected: expect.objectContaining({ jobs: ['test'] }), observed: expect.objectContaining({ jobs: ['lint'] }) }));
    expect(evidence).toContainEqual(expect.objectContaining({ finding: 'reference_fails', side: 'reference' }));
    expect(await lifecycle('h-drift')).toMatchObject({ lifecycle: 'suspect', health: 'drifted' });

    // Flaky twice in a row: the suspect is quarantined.
    expect((await settled('h-flaky', again.flaky)).result).toBe('flaky');
    expect(await lifecycle('h-flaky')).toMatchObject({ lifecycle: 'quarantined', transitions: [{ from: 'suspect', to: 'quarantined', actor: 'revalidation' }, { to: 'suspect' }] });

    // The health summary: counts, what changed, flakiness per repository, the oldest check.
    const summary = (await api.app.inject({ url: '/v1/health/instances', headers: api.auth(api.submitter) })).json();
    expect(summary).toMatchObject({ total: 5, byLifecycle: { active: 2, suspect: 2, quarantined: 1 }, byHealth: { healthy: 1, flaky: 1, drifted: 1, unreplayable: 1, unknown: 1 } });
    expect(summary.changes.verdicts).toContainEqual(expect.objectContaining({ instanceId: 'h-drift', previous: 'healthy', result: 'drifted' }));
    expect(summary.changes.transitions).toContainEqual(expect.objectContaining({ instanceId: 'h-flaky', from: 'suspect', to: 'quarantined' }));
    expect(summary.flakinessByRepo).toContainEqual({ repo: 'health/h-flaky', instances: 1, checked: 1, flaky: 1, flakyShareMean: 1 / 3 });
    expect(summary.oldestCheck).toMatchObject({ instanceId: 'h-broken', checkedAt: null, neverChecked: 1 });
    expect(summary.nonActive.map((row: { instanceId: string }) => row.instanceId).sort()).toEqual(['h-drift', 'h-flaky', 'h-windows']);

    // A healthy re-validation brings the quarantined instance back.
    const healed = await revalidate('h-flaky', 1);
    expect((await settled('h-flaky', healed)).result).toBe('healthy');
    expect(await lifecycle('h-flaky')).toMatchObject({ lifecycle: 'active', health: 'healthy', transitions: [{ from: 'quarantined', to: 'active', reason: 'healthy re-validation' }, {}, {}] });
  }, 600_000);

  it('a ground truth that stops applying makes the instance broken and quarantines it at once', async () => {
    const first = await revalidate('h-broken', 1);
    expect((await settled('h-broken', first)).result).toBe('healthy');
    // The dataset is re-released with a ground truth written against other code: it no longer applies at sha_fail.
    const stale = ['diff --git a/check.sh b/check.sh', '--- a/check.sh', '+++ b/check.sh', '@@ -1 +1 @@', '-echo "a line that is not there"', '+echo ok', ''].join('\n');
    expect(await importRows([{ ...rows['h-broken'], diff: stale }])).toMatchObject({ updated: 1 });
    const second = await revalidate('h-broken', 3);
    const broken = await settled('h-broken', second);
    expect(broken).toMatchObject({ result: 'broken', details: { stoppedEarly: true, evidence: [expect.objectContaining({ finding: 'ground_truth_does_not_apply', side: 'reference' })] } });
    expect(broken.submissionIds.length).toBeLessThan(6);
    expect(await lifecycle('h-broken')).toMatchObject({ lifecycle: 'quarantined', health: 'broken', transitions: [{ from: 'active', to: 'quarantined', actor: 'revalidation' }] });
  }, 300_000);

  it('operators quarantine and restore by hand with a reason; a hand quarantine outlives a healthy re-validation', async () => {
    const noReason = await api.app.inject({ method: 'POST', url: '/v1/instances/h-ok/quarantine', headers: api.auth(api.operator), payload: { reason: ' ' } });
    expect(noReason.statusCode).toBe(422);
    const asSubmitter = await api.app.inject({ method: 'POST', url: '/v1/instances/h-ok/quarantine', headers: api.auth(api.submitter), payload: { reason: 'x' } });
    expect(asSubmitter.statusCode).toBe(403);
    const unknown = await api.app.inject({ method: 'POST', url: '/v1/instances/nope/quarantine', headers: api.auth(api.operator), payload: { reason: 'x' } });
    expect(unknown.statusCode).toBe(404);
    const quarantined = await api.app.inject({ method: 'POST', url: '/v1/instances/h-ok/quarantine', headers: api.auth(api.operator), payload: { reason: 'license unclear' } });
    expect(quarantined.json()).toMatchObject({ from: 'active', to: 'quarantined', reason: 'license unclear', actor: 'operator:test-operator' });
    expect((await api.app.inject({ method: 'POST', url: '/v1/instances/h-ok/quarantine', headers: api.auth(api.operator), payload: { reason: 'again' } })).statusCode).toBe(409);

    const check = await revalidate('h-ok', 1);
    expect((await settled('h-ok', check)).result).toBe('healthy');
    expect(await lifecycle('h-ok')).toMatchObject({ lifecycle: 'quarantined', reason: 'license unclear' });

    const restored = await api.app.inject({ method: 'POST', url: '/v1/instances/h-ok/restore', headers: api.auth(api.operator), payload: { reason: 'license clarified' } });
    expect(restored.json()).toMatchObject({ from: 'quarantined', to: 'active' });
    expect((await lifecycle('h-ok')).transitions.map((row: { to: string; actor: string }) => `${row.to} by ${row.actor}`)).toEqual(['active by operator:test-operator', 'quarantined by operator:test-operator']);
  }, 300_000);

  it('never had more than REVALIDATE_MAX_CONCURRENT re-validation replays unfinished at once', async () => {
    const result = await env.deps.db.pool.query<{ created: Date; completed: Date | null }>(
      `SELECT s."createdAt" AS "created", s."completedAt" AS "completed" FROM "Submission" s
       WHERE EXISTS (SELECT 1 FROM "Revalidation" r WHERE s."id"::text = ANY(r."submissionIds"))`,
    );
    expect(result.rows.length).toBeGreaterThan(20);
    const events = result.rows.flatMap((row) => [
      { at: row.created.getTime(), delta: 1 },
      { at: (row.completed ?? new Date(8.64e15)).getTime(), delta: -1 },
    ]);
    // Ends before starts at the same instant: the scheduler creates a replay only after it saw another one end.
    events.sort((a, b) => a.at - b.at || a.delta - b.delta);
    let running = 0;
    let peak = 0;
    for (const event of events) {
      running += event.delta;
      peak = Math.max(peak, running);
    }
    expect(peak).toBeLessThanOrEqual(2);
    expect(peak).toBe(2);
  });
});
