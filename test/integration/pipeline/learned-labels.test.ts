/**
 * A failed job whose output no rule explains, finalized as the worker does (local backend, real database): the
 * learned fallback's label is stored on the job, shown as learned in the check-run summary, and kept out of the
 * submission's observed error types (revalidation and scores read those, and they rest on rules only).
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finalizeSubmission } from '../../../src/pipeline/finalize.js';
import { pipelineDeps } from '../../../src/workers.js';
import { instanceInput } from '../../support/instance-input.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

let env: TestEnv;

/** A hand-written test script's own output: no rule reads it; the learned fallback labels it a failed test. */
const SUITE = ['Running the suite', 'test_parse ... FAIL', 'test_render ... ok', 'some tests did not pass'];

beforeAll(async () => {
  env = await createTestEnv();
});

afterAll(async () => {
  await env?.cleanup();
});

async function finalizedFailure(id: string, output: string[]): Promise<{ summaries: string[]; submissionId: string }> {
  await env.deps.repos.instances.upsert(instanceInput(id, { repoName: 'suite' }));
  const [submissionId = ''] = await env.deps.repos.submissions.createMany([
    { instanceId: id, runId: null, kind: 'candidate', patch: '', patchSha256: createHash('sha256').update('').digest('hex'), idempotencyKey: null, requestHash: null },
  ]);
  const runId = String(4000 + id.length);
  const jobId = `${runId}1`;
  const common = { repoFullName: 'local/acme--suite', runId, runAttempt: 1, headSha: 'b'.repeat(40), headBranch: `ci-replay/candidate/${submissionId}` };
  await env.deps.repos.submissions.transition(submissionId, ['queued'], 'published', {});
  await env.deps.repos.ci.applyRunEvent(submissionId, { kind: 'workflow_run', ...common, name: 'CI', path: '.github/workflows/ci.yml', event: 'push', status: 'completed', conclusion: 'failure', htmlUrl: null, runStartedAt: null, updatedAt: null });
  await env.deps.repos.ci.applyJobEvent(submissionId, {
    kind: 'workflow_job', ...common, jobId, name: 'test', status: 'completed', conclusion: 'failure', startedAt: null, completedAt: null, runnerName: null, labels: [], htmlUrl: null,
    steps: [{ number: 1, name: 'Run ./run-suite.sh', status: 'completed', conclusion: 'failure', startedAt: null, completedAt: null }],
  });
  // Where the local executor leaves a run's job logs, written as it writes them (GitHub's timestamps, the step's group).
  const stamp = '2024-06-01T00:00:00.0000000Z ';
  const log = ['##[group]Run ./run-suite.sh', './run-suite.sh', '##[endgroup]', ...output, '##[error]Process completed with exit code 1.'].map((line) => `${stamp}${line}`).join('\n');
  await mkdir(path.join(env.config.dataDir, 'runs', runId, 'logs'), { recursive: true });
  await writeFile(path.join(env.config.dataDir, 'runs', runId, 'logs', `${jobId}.log`), `${log}\n`);

  const summaries: string[] = [];
  const deps = await pipelineDeps(env.deps);
  const backend = { ...deps.backend, reportResult: async (result: { summary: string }) => void summaries.push(result.summary) };
  await finalizeSubmission({ ...deps, backend: backend satisfies typeof deps.backend }, submissionId, env.logger);
  return { summaries, submissionId };
}

describe('a failed job only the learned fallback explains, finalized', () => {
  it('keeps the learned label on the job, marks it as learned, and leaves it out of the observed error types', async () => {
    const { summaries, submissionId } = await finalizedFailure('learned-suite', SUITE);
    const labels = await env.deps.repos.ci.labelsOf(submissionId);
    expect(labels.map((label) => [label.type, label.tool])).toContainEqual(['Test Failure', 'learned-fallback']);
    expect(labels.every((label) => label.tool === 'learned-fallback')).toBe(true);
    const summary = await env.deps.repos.submissions.getSummary(submissionId);
    expect(summary).toMatchObject({ state: 'completed', verdict: 'failed', observedLabels: [] });
    expect(summaries).toHaveLength(1);
    // Every type in the job's cell is marked learned (the model may add others beside Test Failure).
    expect(summaries[0]).toMatch(/\| test \| failure \| failed \| Run \.\/run-suite\.sh \| (?:[\w/ ]+ \(learned\), )*Test Failure \(learned\)(?:, [\w/ ]+ \(learned\))* \|/);
  });

  it('a rule-explained failure keeps its types observed (the same path, a pytest summary)', async () => {
    const { submissionId } = await finalizedFailure('rule-pytest', ['FAILED tests/test_calc.py::test_add - assert 1 == 2', '========================= 1 failed, 3 passed in 0.12s =========================']);
    const summary = await env.deps.repos.submissions.getSummary(submissionId);
    expect(summary?.observedLabels.slice().sort()).toEqual(['Assertion Error', 'Test Failure']);
  });
});
