import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceInput } from '../../../src/db/index.js';
import type { SubmissionState } from '../../../src/domain/states.js';
import { settleRevalidations } from '../../../src/revalidation/service.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

let env: TestEnv;

const instance: InstanceInput = {
  id: 'outcomes-1', dataset: 'outcomes', language: 'Python', repoOwner: 'fixture', repoName: 'app', sourceRepoOwner: null, upstreamUrl: 'file:///nowhere',
  headBranch: 'main', workflowName: 'CI', workflowFilename: 'ci.yml', workflowPath: '.github/workflows/ci.yml', workflow: 'name: CI\non: push\njobs: {}\n',
  shaFail: 'a'.repeat(40), shaSuccess: null, diff: '', changedFiles: [], commitDate: null, logs: [], labels: ['Test Failure'], rawLabels: [], protectedPaths: [],
  oracleSha: null, subtasks: null, basePassingTests: [], pythonVersion: null, installCommand: null, contentHash: 'x', metadata: {},
};

beforeAll(async () => {
  env = await createTestEnv();
  await env.deps.repos.instances.upsert(instance);
});
afterAll(async () => {
  await env?.cleanup();
});

async function newSubmission(): Promise<string> {
  const [id] = await env.deps.repos.submissions.createMany([{ instanceId: instance.id, runId: null, kind: 'candidate', patch: 'x', patchSha256: 'x', idempotencyKey: null, requestHash: null }]);
  return id ?? '';
}

describe('every terminal transition records an outcome and a reason code', () => {
  it.each<[SubmissionState, { reason?: string | null; outcome?: 'infra_error' }, { outcome: string; reason: string }]>([
    ['patch_failed', { reason: 'patch_failed' }, { outcome: 'patch_failed', reason: 'patch_does_not_apply' }],
    ['publish_failed', { reason: 'publish_failed' }, { outcome: 'infra_error', reason: 'publish_failed' }],
    ['no_run', { reason: 'no_run' }, { outcome: 'no_run', reason: 'no_run' }],
    ['timed_out', {}, { outcome: 'timed_out', reason: 'timed_out' }],
    ['cancelled', { reason: 'cancelled' }, { outcome: 'cancelled', reason: 'cancelled' }],
    ['infra_error', { reason: 'infra_error' }, { outcome: 'infra_error', reason: 'prepare_failed' }],
    ['infra_error', { reason: 'not_replayable', outcome: 'infra_error' }, { outcome: 'infra_error', reason: 'not_replayable' }],
  ])('%s with %j', async (state, given, expected) => {
    const id = await newSubmission();
    expect(await env.deps.repos.submissions.transition(id, ['queued'], state, { verdict: 'invalid', ...given })).toBe(true);
    expect(await env.deps.repos.submissions.getSummary(id)).toMatchObject({ state, verdict: 'invalid', ...expected });
  });

  it('leaves non-terminal moves and completed (decided by finalize) alone', async () => {
    const id = await newSubmission();
    await env.deps.repos.submissions.transition(id, ['queued'], 'preparing');
    expect(await env.deps.repos.submissions.getSummary(id)).toMatchObject({ state: 'preparing', outcome: null, reason: null });
    await env.deps.repos.submissions.transition(id, ['preparing'], 'completed', { verdict: 'failed', outcome: 'failed', reason: null, reasonDetails: { job: 'test', step: 'Test', lines: [{ line: 9, text: '##[error]Process completed with exit code 1.' }] } });
    expect(await env.deps.repos.submissions.getSummary(id)).toMatchObject({ state: 'completed', outcome: 'failed', reason: null, reasonDetails: { job: 'test', step: 'Test' } });
  });
});

describe('re-validation on outcomes', () => {
  it('marks an instance whose baseline and ground-truth replays all ended infra_error unreplayable on that backend, not drifted', async () => {
    const ids = await env.deps.repos.submissions.createMany(
      (['baseline', 'reference'] as const).map((kind) => ({ instanceId: instance.id, runId: null, kind, patch: '', patchSha256: 'x', idempotencyKey: null, requestHash: null })),
    );
    for (const id of ids) await env.deps.repos.submissions.transition(id, ['queued'], 'infra_error', { verdict: 'invalid', outcome: 'infra_error', reason: 'network_unreachable' });
    const revalidation = await env.deps.repos.revalidations.create(instance.id, ids, { repeats: 1 });
    const settled = await settleRevalidations({ repos: env.deps.repos, submissions: env.deps.submissions, logger: env.logger, config: { ciBackend: 'local' } });
    expect(settled).toBe(1);
    const [latest] = await env.deps.repos.revalidations.listForInstance(instance.id, 1);
    expect(latest).toMatchObject({ id: revalidation.id, status: 'completed', result: 'unreplayable', details: { backend: 'local', counts: { infra: 2, baselineFailed: 0, referencePassed: 0 } } });
    expect((await env.deps.repos.instances.get(instance.id))?.health).toBe('unreplayable');
  });

  it.each([
    ['after the lifecycle move, before marking it completed', 'complete', 'outcomes-2'],
    ['while moving the lifecycle', 'move', 'outcomes-3'],
  ] as const)('a settle that dies %s is redone by the next tick: one lifecycle move, never none or two', async (_when, dies, instanceId) => {
    await env.deps.repos.instances.upsert({ ...instance, id: instanceId });
    const ids = await env.deps.repos.submissions.createMany(
      (['baseline', 'reference'] as const).map((kind) => ({ instanceId, runId: null, kind, patch: '', patchSha256: 'x', idempotencyKey: null, requestHash: null })),
    );
    for (const id of ids) await env.deps.repos.submissions.transition(id, ['queued'], 'infra_error', { verdict: 'invalid', outcome: 'infra_error', reason: 'network_unreachable' });
    const revalidation = await env.deps.repos.revalidations.create(instanceId, ids, { repeats: 1 });
    const died = (): Promise<never> => Promise.reject(new Error('worker died'));
    const { repos } = env.deps;
    const dying = dies === 'complete' ? { ...repos, revalidations: { ...repos.revalidations, complete: died } } : { ...repos, instanceHealth: { ...repos.instanceHealth, move: died } };
    await expect(settleRevalidations({ repos: dying, submissions: env.deps.submissions, logger: env.logger, config: { ciBackend: 'local' } })).rejects.toThrow('worker died');
    expect((await repos.revalidations.listForInstance(instanceId, 1))[0]).toMatchObject({ status: 'running' });
    // The next tick settles it: completed, and the lifecycle moved exactly once (active → suspect, not on to quarantined).
    expect(await settleRevalidations({ repos, submissions: env.deps.submissions, logger: env.logger, config: { ciBackend: 'local' } })).toBe(1);
    expect((await repos.revalidations.listForInstance(instanceId, 1))[0]).toMatchObject({ id: revalidation.id, status: 'completed', result: 'unreplayable' });
    expect((await repos.instanceHealth.get(instanceId))?.lifecycle).toBe('suspect');
    expect((await repos.instanceHealth.history(instanceId, 10)).map((row) => [row.toStatus, row.revalidationId])).toEqual([['suspect', revalidation.id]]);
  });
});
