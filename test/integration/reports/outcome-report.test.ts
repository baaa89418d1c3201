import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceInput } from '../../../src/db/index.js';
import { loadCiRepairReport, runReport } from '../../../src/reports/index.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

let env: TestEnv;
let runId: string;

const instance = (id: string): InstanceInput => ({
  id, dataset: 'outcome-report', language: 'Python', repoOwner: 'fixture', repoName: 'app', sourceRepoOwner: null, upstreamUrl: 'file:///nowhere',
  headBranch: 'main', workflowName: 'CI', workflowFilename: 'ci.yml', workflowPath: '.github/workflows/ci.yml', workflow: 'name: CI\non: push\njobs: {}\n',
  shaFail: 'a'.repeat(40), shaSuccess: null, diff: '', changedFiles: [], commitDate: null, logs: [], labels: ['Test Failure'], rawLabels: [], protectedPaths: [],
  oracleSha: null, subtasks: null, basePassingTests: [], pythonVersion: null, installCommand: null, contentHash: id, metadata: {},
});

beforeAll(async () => {
  env = await createTestEnv();
  const { repos } = env.deps;
  for (const id of ['o-passed', 'o-failed', 'o-patch', 'o-infra', 'o-publish', 'o-norun', 'o-timeout', 'o-none']) await repos.instances.upsert(instance(id));
  runId = (await repos.runs.create({ label: 'model', metadata: {} })).id;
  const targets = ['o-passed', 'o-failed', 'o-patch', 'o-infra', 'o-publish', 'o-norun', 'o-timeout'];
  const ids = await repos.submissions.createMany(targets.map((instanceId) => ({ instanceId, runId, kind: 'candidate' as const, patch: 'x', patchSha256: 'x', idempotencyKey: null, requestHash: null })));
  const id = (instanceId: string): string => ids[targets.indexOf(instanceId)] ?? '';
  // Terminal moves as the pipeline makes them: finalize gives the outcome of completed runs, the rest is derived.
  await repos.submissions.transition(id('o-passed'), ['queued'], 'completed', { verdict: 'passed', outcome: 'passed' });
  await repos.submissions.transition(id('o-failed'), ['queued'], 'completed', { verdict: 'failed', outcome: 'failed' });
  await repos.submissions.transition(id('o-patch'), ['queued'], 'patch_failed', { verdict: 'invalid', reason: 'patch_failed' });
  await repos.submissions.transition(id('o-infra'), ['queued'], 'infra_error', { verdict: 'invalid', outcome: 'infra_error', reason: 'network_unreachable' });
  await repos.submissions.transition(id('o-publish'), ['queued'], 'publish_failed', { verdict: 'invalid', reason: 'publish_failed' });
  await repos.submissions.transition(id('o-norun'), ['queued'], 'no_run', { verdict: 'invalid', reason: 'no_run' });
  await repos.submissions.transition(id('o-timeout'), ['queued'], 'timed_out', { verdict: 'invalid', reason: 'timed_out' });
});
afterAll(async () => {
  await env?.cleanup();
});

describe('a report from stored outcomes', () => {
  it('counts infra_error, no_run and timed_out as not evaluated, never as failed repairs, and gives both rates', async () => {
    const report = await loadCiRepairReport(env.deps, [runId]);
    const [run] = report.runs;
    expect(run).toMatchObject({
      instances: 8,
      passed: 1,
      evaluated: 3,
      repairFailures: 2,
      notEvaluated: 5,
      notRepaired: { failed: 1, patch_failed: 1, infra_error: 2, no_run: 1, timed_out: 1, cancelled: 0, invalid: 0, pending: 0, no_submission: 1 },
      successRateStrict: { count: 1, total: 8, percent: 12.5 },
      successRateEvaluated: { count: 1, total: 3 },
    });
    expect(run?.notEvaluatedReasons).toEqual([
      { outcome: 'infra_error', reason: 'network_unreachable', count: 1 },
      { outcome: 'infra_error', reason: 'publish_failed', count: 1 },
      { outcome: 'no_run', reason: 'no_run', count: 1 },
      { outcome: 'timed_out', reason: 'timed_out', count: 1 },
    ]);
    expect(report.byInstance.find((row) => row.id === 'o-patch')?.runs[0]).toMatchObject({ outcome: 'patch_failed', reason: 'patch_does_not_apply' });
  });

  it('names both rates in the markdown and CSV renderings', async () => {
    const markdown = (await runReport(env.deps, [runId], { format: 'markdown' })).body;
    expect(markdown).toMatch(/\| model \| 8 \| 1 \| 12\.5 \| [^|]+ \| 3 \| 33\.3 \| [^|]+ \| 5 \| 1 \| 1 \| 2 \| 1 \| 1 \| 0 \| 0 \| 0 \| 1 \|/);
    const csv = (await runReport(env.deps, [runId], { format: 'csv' })).body.split('\r\n');
    expect(csv[0]).toContain('Success % strict (passed / all in scope),');
    expect(csv[0]).toContain('Success % evaluated (passed / evaluated),');
  });
});
