import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGithubSim, type GithubSim } from '../../support/github-sim/index.js';
import { createSchemaValidator } from '../../support/github-sim/schema/assert-matches-schema.js';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '../../support/github-sim/webhook-receiver.js';

const WORKFLOW = `name: CI
on:
  push: { branches: ['ci-replay/**'] }
  workflow_dispatch: {}
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: mkdir -p out && echo hi > out/x.txt
      - uses: actions/upload-artifact@v4
        with: { name: out, path: out }
`;

interface Recorded {
  method: string;
  path: string;
  body: unknown;
  status: number;
  data: unknown;
}

describe('a scenario through @octokit/rest only uses operations GitHub documents', () => {
  const validator = createSchemaValidator();
  const calls: Recorded[] = [];
  let sim: GithubSim;
  let receiver: WebhookReceiver;

  const client = (auth: string): Octokit => {
    const quiet = (): void => undefined;
    const octokit = new Octokit({ auth, baseUrl: sim.url, log: { debug: quiet, info: quiet, warn: quiet, error: quiet } });
    octokit.hook.wrap('request', async (request, options) => {
      const endpoint = octokit.request.endpoint.parse(options);
      const url = new URL(endpoint.url);
      const entry: Recorded = { method: endpoint.method, path: url.pathname, body: endpoint.body, status: 0, data: undefined };
      calls.push(entry);
      try {
        const response = await request(options);
        entry.status = response.status;
        entry.data = structuredClone(response.data);
        return response;
      } catch (error) {
        const failed = error as { status?: number; response?: { data?: unknown } };
        entry.status = failed.status ?? 0;
        entry.data = failed.response?.data;
        throw error;
      }
    });
    return octokit;
  };

  beforeAll(async () => {
    sim = await startGithubSim({ forkDelayMs: 200 });
    receiver = await startWebhookReceiver(sim.webhookSecret);
    sim.setWebhookUrl(receiver.url);
    sim.createInstallation({ account: 'bench' });
    await sim.createRepo({ owner: 'upstream', name: 'proj', files: { 'README.md': 'x\n', '.github/workflows/ci.yml': WORKFLOW } });
  });

  afterAll(async () => {
    await sim.close();
    await receiver.close();
  });

  it('drives App auth, fork, Actions, checks, refs and deliveries with octokit', async () => {
    const app = client(sim.appJwt());
    expect((await app.rest.apps.getAuthenticated()).data?.id).toBe(sim.appId);
    const installations = await app.rest.apps.listInstallations();
    const installationId = installations.data[0]?.id ?? 0;
    const { data: tokenData } = await app.rest.apps.createInstallationAccessToken({ installation_id: installationId, permissions: { contents: 'write', actions: 'write', checks: 'write', administration: 'write', workflows: 'write', metadata: 'read' } });
    const gh = client(tokenData.token);
    const repo = { owner: 'bench', repo: 'upstream--proj' };

    await gh.rest.repos.createInOrg({ org: 'bench', name: 'scratch' });
    await gh.rest.repos.get({ owner: 'upstream', repo: 'proj' });
    await gh.rest.repos.createFork({ owner: 'upstream', repo: 'proj', organization: 'bench', name: 'upstream--proj', default_branch_only: true });
    const main = await waitFor(async () => gh.rest.git.getRef({ ...repo, ref: 'heads/main' }).catch(() => null), 5000, 50);
    await app.rest.apps.getRepoInstallation(repo);

    await gh.rest.actions.setGithubActionsPermissionsRepository({ ...repo, enabled: true });
    const { data: workflows } = await gh.rest.actions.listRepoWorkflows(repo);
    const workflowId = workflows.workflows[0]?.id ?? 0;
    expect(workflows.workflows[0]?.state).toBe('disabled_fork');
    await gh.rest.actions.enableWorkflow({ ...repo, workflow_id: workflowId });
    await gh.rest.git.createRef({ ...repo, ref: 'refs/heads/ci-replay/oct/1', sha: main.data.object.sha });
    await sim.idle();

    const { data: runs } = await gh.rest.actions.listWorkflowRunsForRepo({ ...repo, head_sha: main.data.object.sha, status: 'completed', per_page: 100 });
    const runId = runs.workflow_runs[0]?.id ?? 0;
    expect(runs.workflow_runs[0]?.conclusion).toBe('success');
    await gh.rest.actions.getWorkflowRun({ ...repo, run_id: runId });
    const jobs = await gh.paginate(gh.rest.actions.listJobsForWorkflowRun, { ...repo, run_id: runId, filter: 'all', per_page: 1 });
    expect(jobs).toHaveLength(1);
    await gh.rest.actions.listJobsForWorkflowRunAttempt({ ...repo, run_id: runId, attempt_number: 1 });
    const log = await gh.rest.actions.downloadJobLogsForWorkflowRun({ ...repo, job_id: jobs[0]?.id ?? 0 });
    expect(String(log.data)).toContain('##[group]Run mkdir -p out');
    const { data: artifacts } = await gh.rest.actions.listWorkflowRunArtifacts({ ...repo, run_id: runId });
    const zip = await gh.rest.actions.downloadArtifact({ ...repo, artifact_id: artifacts.artifacts[0]?.id ?? 0, archive_format: 'zip' });
    expect(Buffer.from(zip.data as ArrayBuffer).subarray(0, 2).toString()).toBe('PK');
    await gh.rest.actions.reRunWorkflow({ ...repo, run_id: runId });
    await sim.idle();
    await expect(gh.rest.actions.cancelWorkflowRun({ ...repo, run_id: runId })).rejects.toMatchObject({ status: 409 });
    const dispatched = await gh.request('POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', { ...repo, workflow_id: workflowId, ref: 'ci-replay/oct/1', return_run_details: true });
    expect(dispatched.status).toBe(200);

    const { data: check } = await gh.rest.checks.create({ ...repo, name: 'ci-replay', head_sha: main.data.object.sha, status: 'in_progress', external_id: 'sub-1' });
    await gh.rest.checks.update({ ...repo, check_run_id: check.id, conclusion: 'failure', output: { title: 'Failed', summary: 'One test failed', annotations: [{ path: 'a.py', start_line: 1, end_line: 1, annotation_level: 'failure', message: 'boom' }] } });
    const { data: listed } = await gh.rest.checks.listForRef({ ...repo, ref: main.data.object.sha, check_name: 'ci-replay' });
    expect(listed.check_runs[0]?.output.annotations_count).toBe(1);

    await gh.rest.git.listMatchingRefs({ ...repo, ref: 'heads/ci-replay' });
    await gh.rest.git.updateRef({ ...repo, ref: 'heads/ci-replay/oct/1', sha: main.data.object.sha, force: true });
    await gh.rest.git.deleteRef({ ...repo, ref: 'heads/ci-replay/oct/1' });
    await sim.commit('upstream/proj', { files: { 'new.txt': 'n\n' }, message: 'Upstream change', branch: 'main' });
    const merged = await gh.rest.repos.mergeUpstream({ ...repo, branch: 'main' });
    expect(merged.data.merge_type).toBe('fast-forward');
    await sim.idle();

    const { data: deliveries } = await app.rest.apps.listWebhookDeliveries({ per_page: 10 });
    await app.rest.apps.getWebhookDelivery({ delivery_id: deliveries[0]?.id ?? 0 });
    await app.rest.apps.redeliverWebhookDelivery({ delivery_id: deliveries[0]?.id ?? 0 });
    await sim.idle();

    expect(calls.length).toBeGreaterThan(30);
    for (const call of calls) {
      const template = validator.findOperation(call.method, call.path);
      expect(template, `${call.method} ${call.path}`).not.toBeNull();
      const body = (call.body ?? {}) as Record<string, unknown>;
      for (const field of validator.requiredBodyFields(call.method, template ?? '')) {
        expect(body, `${call.method} ${template} sends ${field}`).toHaveProperty(field);
      }
      if (call.status !== 302 && !(call.data instanceof ArrayBuffer) && typeof call.data !== 'string') {
        validator.assertResponse(call.method, template ?? '', call.status, call.data === '' ? undefined : call.data);
      }
    }
  });
});
