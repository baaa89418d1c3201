import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGithubSim, type GithubSim } from '../../support/github-sim/index.js';
import { createSchemaValidator } from '../../support/github-sim/schema/assert-matches-schema.js';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '../../support/github-sim/webhook-receiver.js';

const WORKFLOW = `name: CI
on:
  push:
    branches: ['ci-replay/**']
  workflow_dispatch:
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: mkdir -p out && echo ok > out/a.txt
      - uses: actions/upload-artifact@v4
        with: { name: out, path: out }
`;

interface Call {
  status: number;
  body: unknown;
  headers: Headers;
}

describe('every simulator response and webhook matches GitHub’s OpenAPI schemas', () => {
  const validator = createSchemaValidator();
  let sim: GithubSim;
  let receiver: WebhookReceiver;
  let token = '';
  const checked: string[] = [];

  const call = async (method: string, path: string, options: { body?: unknown; auth?: 'app' | 'token' | 'none' } = {}): Promise<Call> => {
    const headers: Record<string, string> = { accept: 'application/vnd.github+json' };
    if (options.auth !== 'none') headers.authorization = options.auth === 'app' ? `Bearer ${sim.appJwt()}` : `token ${token}`;
    const response = await fetch(`${sim.url}${path}`, { method, headers, redirect: 'manual', ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
    const text = await response.text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    const template = validator.findOperation(method, path.split('?')[0] ?? path);
    expect(template, `${method} ${path} is documented`).not.toBeNull();
    validator.assertResponse(method, template ?? '', response.status, body);
    checked.push(`${method} ${template} ${response.status}`);
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-used', 'x-ratelimit-resource', 'x-github-request-id']) {
      expect(response.headers.get(header), header).not.toBeNull();
    }
    return { status: response.status, body, headers: response.headers };
  };

  beforeAll(async () => {
    sim = await startGithubSim({ forkDelayMs: 300 });
    receiver = await startWebhookReceiver(sim.webhookSecret);
    sim.setWebhookUrl(receiver.url);
    sim.createInstallation({ account: 'bench' });
    await sim.createRepo({ owner: 'upstream', name: 'lib', files: { 'README.md': 'hi\n', '.github/workflows/ci.yml': WORKFLOW } });
  });

  afterAll(async () => {
    await sim.close();
    await receiver.close();
  });

  it('answers the App, installation, repository, fork, Actions, checks, refs and delivery endpoints in GitHub’s shapes', async () => {
    expect((await call('GET', '/app', { auth: 'app' })).status).toBe(200);
    const installations = await call('GET', '/app/installations', { auth: 'app' });
    const installationId = (installations.body as { id: number }[])[0]?.id ?? 0;
    const created = await call('POST', `/app/installations/${installationId}/access_tokens`, { auth: 'app', body: {} });
    expect(created.status).toBe(201);
    token = (created.body as { token: string }).token;
    expect(token).toMatch(/^ghs_/);

    expect((await call('GET', `/app/installations/${installationId}`, { auth: 'app' })).status).toBe(200);
    expect((await call('GET', '/installation/repositories')).status).toBe(200);
    expect((await call('POST', '/orgs/bench/repos', { body: { name: 'plain', private: false } })).status).toBe(201);
    expect((await call('GET', '/repos/bench/plain/installation', { auth: 'app' })).status).toBe(200);
    expect((await call('GET', '/repos/upstream/lib')).status).toBe(200);
    sim.faults.forkStaysCreating('upstream/lib');
    const fork = await call('POST', '/repos/upstream/lib/forks', { body: { organization: 'bench', name: 'upstream--lib', default_branch_only: true } });
    expect(fork.status).toBe(202);
    expect((await call('GET', '/repos/bench/upstream--lib/git/ref/heads/main')).status).toBe(409);
    sim.faults.finishFork('bench/upstream--lib');
    const ref = await waitFor(async () => {
      const r = await call('GET', '/repos/bench/upstream--lib/git/ref/heads/main');
      return r.status === 200 ? r : null;
    });
    const mainSha = (ref.body as { object: { sha: string } }).object.sha;
    expect((await call('GET', '/repos/bench/upstream--lib')).status).toBe(200);
    expect((await call('GET', '/repos/bench/upstream--lib/contents/README.md')).status).toBe(200);

    const workflows = await call('GET', '/repos/bench/upstream--lib/actions/workflows');
    const workflow = (workflows.body as { workflows: { id: number; state: string }[] }).workflows[0];
    expect(workflow?.state).toBe('disabled_fork');
    expect((await call('PUT', '/repos/bench/upstream--lib/actions/permissions', { body: { enabled: true } })).status).toBe(204);
    expect((await call('GET', '/repos/bench/upstream--lib/actions/permissions')).status).toBe(200);
    expect((await call('PUT', `/repos/bench/upstream--lib/actions/workflows/${workflow?.id}/disable`)).status).toBe(204);
    expect((await call('GET', `/repos/bench/upstream--lib/actions/workflows/${workflow?.id}`)).body).toMatchObject({ state: 'disabled_manually' });
    expect((await call('PUT', `/repos/bench/upstream--lib/actions/workflows/${workflow?.id}/enable`)).status).toBe(204);
    expect((await call('GET', `/repos/bench/upstream--lib/actions/workflows/${workflow?.id}`)).status).toBe(200);

    expect((await call('POST', '/repos/bench/upstream--lib/git/refs', { body: { ref: 'refs/heads/ci-replay/a/1', sha: mainSha } })).status).toBe(201);
    expect((await call('POST', '/repos/bench/upstream--lib/git/refs', { body: { ref: 'refs/heads/ci-replay/a/1', sha: mainSha } })).status).toBe(422);
    expect((await call('GET', '/repos/bench/upstream--lib/git/matching-refs/heads/ci-replay')).status).toBe(200);
    expect((await call('PATCH', '/repos/bench/upstream--lib/git/refs/heads/ci-replay/a/1', { body: { sha: mainSha, force: false } })).status).toBe(200);
    await sim.idle();

    const runs = await call('GET', `/repos/bench/upstream--lib/actions/runs?head_sha=${mainSha}&branch=ci-replay/a/1&event=push&status=completed&per_page=10`);
    const runId = (runs.body as { workflow_runs: { id: number }[] }).workflow_runs[0]?.id ?? 0;
    expect(runId).toBeGreaterThan(2 ** 31);
    expect((await call('GET', `/repos/bench/upstream--lib/actions/workflows/${workflow?.id}/runs`)).status).toBe(200);
    expect((await call('GET', `/repos/bench/upstream--lib/actions/runs/${runId}`)).status).toBe(200);
    const jobs = await call('GET', `/repos/bench/upstream--lib/actions/runs/${runId}/jobs?filter=all`);
    const jobId = (jobs.body as { jobs: { id: number }[] }).jobs[0]?.id ?? 0;
    expect((await call('GET', `/repos/bench/upstream--lib/actions/runs/${runId}/attempts/1/jobs`)).status).toBe(200);
    expect((await call('GET', `/repos/bench/upstream--lib/actions/runs/${runId}/attempts/1`)).status).toBe(200);
    expect((await call('GET', `/repos/bench/upstream--lib/actions/jobs/${jobId}`)).status).toBe(200);
    expect((await call('GET', `/repos/bench/upstream--lib/actions/jobs/${jobId}/logs`)).status).toBe(302);
    const artifacts = await call('GET', `/repos/bench/upstream--lib/actions/runs/${runId}/artifacts`);
    const artifactId = (artifacts.body as { artifacts: { id: number }[] }).artifacts[0]?.id ?? 0;
    expect((await call('GET', '/repos/bench/upstream--lib/actions/artifacts')).status).toBe(200);
    expect((await call('GET', `/repos/bench/upstream--lib/actions/artifacts/${artifactId}`)).status).toBe(200);
    expect((await call('GET', `/repos/bench/upstream--lib/actions/artifacts/${artifactId}/zip`)).status).toBe(302);
    expect((await call('POST', `/repos/bench/upstream--lib/actions/runs/${runId}/cancel`)).status).toBe(409);
    expect((await call('POST', `/repos/bench/upstream--lib/actions/runs/${runId}/rerun`)).status).toBe(201);
    await sim.idle();
    expect((await call('GET', `/repos/bench/upstream--lib/actions/runs/${runId}/attempts/2/jobs`)).status).toBe(200);
    await sim.idle();
    // The latest attempt succeeded: GitHub refuses to re-run its (non-existent) failed jobs.
    expect((await call('POST', `/repos/bench/upstream--lib/actions/runs/${runId}/rerun-failed-jobs`)).status).toBe(403);

    const dispatched = await call('POST', `/repos/bench/upstream--lib/actions/workflows/ci.yml/dispatches`, { body: { ref: 'ci-replay/a/1', return_run_details: true } });
    expect(dispatched.status).toBe(200);
    expect((await call('POST', `/repos/bench/upstream--lib/actions/workflows/ci.yml/dispatches`, { body: { ref: 'ci-replay/a/1' } })).status).toBe(204);

    const check = await call('POST', '/repos/bench/upstream--lib/check-runs', {
      body: { name: 'ci-replay', head_sha: mainSha, status: 'in_progress', external_id: 'sub-1', actions: [{ label: 'Re-run', description: 'Replay again', identifier: 'rerun' }] },
    });
    expect(check.status).toBe(201);
    const checkId = (check.body as { id: number }).id;
    expect((await call('POST', '/repos/bench/upstream--lib/check-runs', { body: { name: 'x', head_sha: mainSha, output: { title: 't', summary: 'x'.repeat(65_536) } } })).status).toBe(422);
    const annotations = Array.from({ length: 51 }, (_, i) => ({ path: 'a.py', start_line: i + 1, end_line: i + 1, annotation_level: 'failure', message: 'm' }));
    expect((await call('PATCH', `/repos/bench/upstream--lib/check-runs/${checkId}`, { body: { output: { title: 't', summary: 's', annotations } } })).status).toBe(422);
    expect((await call('PATCH', `/repos/bench/upstream--lib/check-runs/${checkId}`, { body: { conclusion: 'success', output: { title: 't', summary: 's', annotations: annotations.slice(0, 50) } } })).status).toBe(200);
    expect((await call('GET', `/repos/bench/upstream--lib/check-runs/${checkId}`)).status).toBe(200);
    const listed = await call('GET', `/repos/bench/upstream--lib/commits/${mainSha}/check-runs`);
    expect((listed.body as { check_runs: { name: string }[] }).check_runs.map((r) => r.name)).toContain('ci-replay');
    sim.clickCheckRunAction(checkId, 'rerun');

    await sim.commit('upstream/lib', { files: { 'b.txt': 'b\n' }, message: 'Upstream moves', branch: 'main' });
    expect((await call('POST', '/repos/bench/upstream--lib/merge-upstream', { body: { branch: 'main' } })).status).toBe(200);
    expect((await call('DELETE', '/repos/bench/upstream--lib/git/refs/heads/ci-replay/a/1')).status).toBe(204);
    expect((await call('GET', '/repos/bench/nope')).status).toBe(404);
    expect((await call('GET', '/repos/bench/upstream--lib/git/ref/heads/nope')).status).toBe(404);
    await sim.idle();

    const deliveries = await call('GET', '/app/hook/deliveries?per_page=5', { auth: 'app' });
    const first = (deliveries.body as { id: number }[])[0];
    expect(deliveries.headers.get('link')).toMatch(/cursor=/);
    expect((await call('GET', `/app/hook/deliveries/${first?.id}`, { auth: 'app' })).status).toBe(200);
    expect((await call('POST', `/app/hook/deliveries/${first?.id}/attempts`, { auth: 'app' })).status).toBe(202);
    await sim.idle();
    expect(new Set(checked).size).toBeGreaterThanOrEqual(40);
  });

  it('delivered webhooks match the webhook schemas', async () => {
    await waitFor(() => receiver.received.some((d) => d.event === 'check_run' && d.payload.action === 'requested_action'), 3000);
    const kinds = new Set<string>();
    for (const delivery of receiver.received) {
      const action = typeof delivery.payload.action === 'string' ? delivery.payload.action : null;
      validator.assertWebhook(delivery.event, action, delivery.payload);
      kinds.add(`${delivery.event}.${action ?? ''}`);
      expect(delivery.verified).toBe(true);
    }
    for (const kind of ['installation.created', 'push.', 'workflow_run.requested', 'workflow_run.in_progress', 'workflow_run.completed', 'workflow_job.queued', 'workflow_job.in_progress', 'workflow_job.completed', 'check_run.created', 'check_run.completed', 'check_run.requested_action', 'check_suite.requested', 'check_suite.completed']) {
      expect(kinds, kind).toContain(kind);
    }
  });
});
