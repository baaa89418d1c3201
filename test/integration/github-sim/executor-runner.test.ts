import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutorRunner, startGithubSim, type GithubSim } from '../../support/github-sim/index.js';
import { createSchemaValidator } from '../../support/github-sim/schema/assert-matches-schema.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/github-sim/webhook-receiver.js';

const WORKFLOW = `name: Tests
on:
  push:
    branches: ['ci-replay/**']
jobs:
  unit:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Run tests
        run: |
          test -f src/app.py
          echo "FAILED tests/test_app.py::test_add - assert 1 == 2"
          exit 1
  after:
    needs: unit
    runs-on: ubuntu-latest
    steps:
      - run: echo never
`;

describe('simulator with the project’s local executor as runner', () => {
  let sim: GithubSim;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    sim = await startGithubSim({ runner: createExecutorRunner({ logger: pino({ level: 'silent' }) }) });
    receiver = await startWebhookReceiver(sim.webhookSecret);
    sim.setWebhookUrl(receiver.url);
    sim.createInstallation({ account: 'bench' });
    await sim.createRepo({ owner: 'bench', name: 'py', files: { 'src/app.py': 'def add(a, b):\n    return a - b\n', '.github/workflows/tests.yml': WORKFLOW } });
  });

  afterAll(async () => {
    await sim.close();
    await receiver.close();
  });

  it('runs a pushed branch with src/executor and reports jobs, steps, logs and webhooks as GitHub does', async () => {
    const token = sim.installationToken(sim.state.installations.values().next().value?.id ?? 0);
    const headers = { authorization: `token ${token}` };
    const main = (await (await fetch(`${sim.url}/repos/bench/py/git/ref/heads/main`, { headers })).json()) as { object: { sha: string } };
    const created = await fetch(`${sim.url}/repos/bench/py/git/refs`, { method: 'POST', headers, body: JSON.stringify({ ref: 'refs/heads/ci-replay/exec/1', sha: main.object.sha }) });
    expect(created.status).toBe(201);
    await sim.idle();

    const run = [...sim.state.runs.values()][0];
    const runBody = (await (await fetch(`${sim.url}/repos/bench/py/actions/runs/${run?.id}`, { headers })).json()) as { status: string; conclusion: string };
    expect(runBody).toMatchObject({ status: 'completed', conclusion: 'failure' });
    const jobs = (await (await fetch(`${sim.url}/repos/bench/py/actions/runs/${run?.id}/jobs`, { headers })).json()) as { jobs: { id: number; name: string; conclusion: string; steps: { name: string; conclusion: string }[] }[] };
    const unit = jobs.jobs.find((j) => j.name === 'unit');
    expect(unit?.conclusion).toBe('failure');
    expect(unit?.steps[0]?.name).toBe('Set up job');
    expect(unit?.steps.find((s) => s.name === 'Run tests')?.conclusion).toBe('failure');
    expect(jobs.jobs.find((j) => j.name === 'after')?.conclusion).toBe('skipped');
    const validator = createSchemaValidator();
    validator.assertResponse('GET', '/repos/{owner}/{repo}/actions/runs/{run_id}/jobs', 200, jobs);

    const redirect = await fetch(`${sim.url}/repos/bench/py/actions/jobs/${unit?.id}/logs`, { headers, redirect: 'manual' });
    const log = await (await fetch(redirect.headers.get('location') ?? '')).text();
    expect(log).toContain('FAILED tests/test_app.py::test_add');
    expect(log).toContain('##[error]Process completed with exit code 1.');

    const jobEvents = receiver.received.filter((d) => d.event === 'workflow_job');
    expect(jobEvents.some((d) => (d.payload.workflow_job as { name: string }).name === 'after')).toBe(false);
    expect(jobEvents.length).toBeGreaterThanOrEqual(3);
    for (const delivery of [...jobEvents, ...receiver.received.filter((d) => d.event === 'workflow_run')]) {
      validator.assertWebhook(delivery.event, String(delivery.payload.action), delivery.payload);
      expect(delivery.verified).toBe(true);
    }
  });
});
