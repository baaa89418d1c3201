import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventFromWebhook } from '../../../src/pipeline/github-payloads.js';
import type { PipelineDeps } from '../../../src/pipeline/context.js';
import { pipelineDeps } from '../../../src/workers.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

interface ExampleGroup {
  name: string;
  examples: Record<string, unknown>[];
}

const examples = createRequire(import.meta.url)('@octokit/webhooks-examples/api.github.com/index.json') as ExampleGroup[];
const of = (name: string): Record<string, unknown>[] => examples.find((group) => group.name === name)?.examples ?? [];

describe("GitHub's example webhook payloads (@octokit/webhooks-examples) through the service's own handlers", () => {
  let env: TestEnv;
  let pipeline: PipelineDeps;
  beforeAll(async () => {
    env = await createTestEnv();
    pipeline = await pipelineDeps(env.deps);
  });
  afterAll(async () => {
    await env.cleanup();
  });

  it('translates every workflow_run and workflow_job example into a normalized event', () => {
    const runs = of('workflow_run');
    const jobs = of('workflow_job');
    expect(runs.length).toBeGreaterThan(3);
    expect(jobs.length).toBeGreaterThan(5);
    for (const payload of runs) {
      const event = eventFromWebhook('workflow_run', payload);
      const run = payload.workflow_run as Record<string, unknown>;
      expect(event).toMatchObject({ kind: 'workflow_run', runId: String(run.id), headSha: run.head_sha, status: run.status, conclusion: run.conclusion ?? null, runAttempt: run.run_attempt });
    }
    for (const payload of jobs) {
      const event = eventFromWebhook('workflow_job', payload);
      const job = payload.workflow_job as Record<string, unknown>;
      expect(event).toMatchObject({ kind: 'workflow_job', jobId: String(job.id), runId: String(job.run_id), name: job.name, status: job.status });
      expect(event?.kind === 'workflow_job' ? event.steps.length : -1).toBe((job.steps as unknown[]).length);
    }
    for (const name of ['check_run', 'installation', 'push']) for (const payload of of(name)) expect(eventFromWebhook(name, payload)).toBeNull();
  });

  it('records and processes every example delivery: unknown commits are ignored, known ones update the submission', async () => {
    const [firstJob] = of('workflow_job');
    const job = firstJob!.workflow_job as Record<string, unknown>;
    await env.deps.repos.instances.upsert({
      id: 'example', dataset: 'test', language: 'Python', repoOwner: 'octo', repoName: 'repo', sourceRepoOwner: null, upstreamUrl: null, headBranch: null,
      workflowName: null, workflowFilename: null, workflowPath: '.github/workflows/ci.yml', workflow: 'on: push', shaFail: 'a'.repeat(40), shaSuccess: null, diff: '',
      changedFiles: [], commitDate: null, logs: [], labels: [], rawLabels: [], protectedPaths: [], oracleSha: null, subtasks: null, basePassingTests: [],
      pythonVersion: null, installCommand: null, contentHash: 'x', metadata: {},
    });
    const [submissionId] = await env.deps.repos.submissions.createMany([{ instanceId: 'example', runId: null, kind: 'baseline', patch: '', patchSha256: 'x', idempotencyKey: null, requestHash: null }]);
    await env.deps.repos.submissions.update(submissionId!, { headSha: String(job.head_sha), branch: (job.head_branch as string | null) ?? null });
    await env.deps.repos.submissions.transition(submissionId!, ['queued'], 'published');

    const outcomes: Record<string, number> = {};
    for (const name of ['workflow_run', 'workflow_job', 'check_run', 'installation', 'ping']) {
      for (const payload of of(name)) {
        const id = randomUUID();
        await env.deps.repos.deliveries.record({ id, event: name, action: (payload.action as string | undefined) ?? null, hookId: null, installationId: null, repoFullName: null, payload: JSON.stringify(payload) });
        await env.deps.deliveries.process(id, pipeline, env.logger);
        const status = (await env.deps.repos.deliveries.get(id))?.status ?? 'missing';
        outcomes[status] = (outcomes[status] ?? 0) + 1;
      }
    }
    expect(outcomes.received).toBeUndefined();
    expect(outcomes.processed).toBeGreaterThanOrEqual(1);
    expect(outcomes.ignored).toBeGreaterThan(5);
    const submission = await env.deps.repos.submissions.getSummary(submissionId!);
    expect(submission?.state).toBe('running');
    const runs = await env.deps.repos.ci.runsOf(submissionId!);
    expect(runs.map((run) => run.githubRunId.toString())).toContain(String(job.run_id));
  });
});
