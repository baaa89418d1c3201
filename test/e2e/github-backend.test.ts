import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_OWNER, startGithubHarness, UPSTREAM_OWNER, type GithubHarness } from '../support/github-e2e/harness.js';
import type { SimCheckRun } from '../support/github-sim/types.js';
import { waitFor } from '../support/wait-for.js';
import { createSchemaValidator } from '../support/github-sim/schema/assert-matches-schema.js';
import { pipelineDeps } from '../../src/workers.js';
import type { PipelineDeps } from '../../src/pipeline/context.js';

const BENCH_REPO = `${BENCH_OWNER}/${UPSTREAM_OWNER}--calc`;

describe('the pipeline end to end on the GitHub backend (simulator: REST, git, Actions runs, webhooks)', () => {
  let h: GithubHarness;
  let pipeline: PipelineDeps;
  let firstFailing = '';

  beforeAll(async () => {
    h = await startGithubHarness({ env: { NO_RUN_GRACE_SECONDS: '600' } });
    pipeline = await pipelineDeps(h.env.deps);
    await h.seedUpstream('calc');
    await h.importInstances(h.demo.instances.map((instance) => instance.row));
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const checkRunOf = (id: string): SimCheckRun | undefined => [...h.sim.state.checkRuns.values()].find((run) => run.externalId === id && run.owner === 'app');
  const completedCheckRun = (id: string): Promise<SimCheckRun> =>
    waitFor(async () => {
      const run = checkRunOf(id);
      return run?.status === 'completed' ? run : undefined;
    }, { timeoutMs: 30_000, describe: async () => checkRunOf(id) });
  const checkRunsOf = (id: string): SimCheckRun[] => [...h.sim.state.checkRuns.values()].filter((run) => run.externalId === id && run.owner === 'app');
  const jobsOf = async (id: string) => {
    const runs = await h.env.deps.repos.ci.runsOf(id);
    const latest = [...runs].sort((a, b) => a.runAttempt - b.runAttempt).at(-1);
    return latest === undefined ? [] : h.env.deps.repos.ci.jobsOfRun(latest.id);
  };
  const simRunOf = (headSha: string) => [...h.sim.state.runs.values()].find((run) => run.headSha === headSha);

  it('a failing baseline goes queued → published → running → completed, with per-job outcomes, log, label and a completed check run', async () => {
    const id = await h.submit({ instanceId: 'demo-lint', kind: 'baseline' });
    firstFailing = id;
    const seen = new Set<string>();
    const result = await waitFor(
      async () => {
        const body = await h.submission(id);
        seen.add(String(body.state));
        return body.state === 'completed' && body.verdict !== null ? body : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 50, describe: () => h.submission(id) },
    );
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed', observedLabels: ['Code Linting'] });
    expect(result.publishedAt).not.toBeNull();
    expect(result.startedAt).not.toBeNull();
    expect([...seen].filter((state) => ['published', 'running', 'completed'].includes(state)).length).toBeGreaterThanOrEqual(2);

    const fork = h.sim.state.repos.get(BENCH_REPO.toLowerCase());
    expect(fork?.parentId).not.toBeNull();
    expect(fork?.actionsEnabled).toBe(true);
    expect(fork?.workflows.find((workflow) => workflow.path === '.github/workflows/ci.yml')?.state).toBe('active');

    const jobs = await jobsOf(id);
    const byName = Object.fromEntries(jobs.map((job) => [job.name, job]));
    expect(Object.keys(byName).sort()).toEqual(['format', 'lint', 'test (3.11)']);
    expect(byName.lint).toMatchObject({ conclusion: 'failure', failedStep: 'Lint with flake8' });
    expect(byName.format?.conclusion).toBe('success');
    expect(byName.lint?.log).not.toBeNull();
    const labels = await h.env.deps.repos.ci.labelsOf(id);
    expect(labels.map((label) => [label.type, label.tool])).toEqual([['Code Linting', 'flake8']]);
    const stored = await h.env.deps.logStore.open(byName.lint!.log!.storageKey);
    let text = '';
    for await (const chunk of stored!) text += chunk;
    expect(text).toContain("F401 'os' imported but unused");

    const check = await completedCheckRun(id);
    expect(check).toMatchObject({ name: 'ci-replay', status: 'completed', conclusion: 'failure', headSha: result.headSha });
    expect(check?.detailsUrl).toBe(`http://ci-replay.test/v1/submissions/${id}`);
    expect(check?.output.summary).toContain('Lint with flake8');
    expect(check?.output.annotations.length).toBeGreaterThan(0);
    expect(JSON.stringify(check?.output.annotations)).toContain('F401');
    expect(check?.actions.map((action) => action.identifier)).toEqual(['rerun']);
    expect(String(result.checkRunId)).toBe(String(check?.id));
  }, 180_000);

  it('a passing reference completes green and its check run succeeds', async () => {
    const id = await h.submit({ instanceId: 'demo-format', kind: 'reference' });
    const result = await h.finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'passed', observedLabels: [] });
    expect(await completedCheckRun(id)).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect((await jobsOf(id)).every((job) => job.conclusion === 'success')).toBe(true);
  }, 180_000);

  /** The maintenance tick the lead wires into the worker (GitHub reconcile: fetch runs, then generic reconcile). */
  const reconcileTick = (id: string) => h.parts.reconcileSubmission(pipeline, id, h.env.logger);
  const runCompletedInSim = (id: string) =>
    waitFor(async () => {
      const body = await h.submission(id);
      const run = typeof body.headSha === 'string' ? simRunOf(body.headSha) : undefined;
      return run?.attempts.at(-1)?.status === 'completed' ? run : undefined;
    }, { timeoutMs: 60_000, describe: () => h.submission(id) });

  it('duplicated and reordered webhooks end in the same, right state', async () => {
    h.sim.faults.webhooks.duplicate({ event: 'workflow_job', times: 50 });
    h.sim.faults.webhooks.duplicate({ event: 'workflow_run', times: 10 });
    h.sim.faults.webhooks.hold();
    const id = await h.submit({ instanceId: 'demo-assertion', kind: 'baseline' });
    try {
      await runCompletedInSim(id);
      expect((await h.submission(id)).state).toBe('published');
    } finally {
      h.sim.faults.webhooks.release('reverse');
    }
    const result = await h.finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed' });
    expect([...(result.observedLabels as string[])].sort()).toEqual(['Assertion Error', 'Test Failure']);
    const failed = (await jobsOf(id)).filter((job) => job.conclusion === 'failure');
    expect(failed.map((job) => [job.name, job.failedStep])).toEqual([['test (3.11)', 'Run tests']]);
    expect(await h.env.deps.repos.ci.runsOf(id)).toHaveLength(1);
    expect(await completedCheckRun(id)).toMatchObject({ conclusion: 'failure' });
    h.sim.faults.clear();
  }, 180_000);

  it('dropped webhooks are recovered by the reconciler (runs fetched by head SHA), failed ones by redelivery', async () => {
    h.sim.faults.webhooks.drop({ event: 'workflow_run', action: 'completed' });
    h.sim.faults.webhooks.drop({ event: 'workflow_job', action: 'completed', times: 3 });
    const dropped = await h.submit({ instanceId: 'demo-dependency', kind: 'baseline' });
    await runCompletedInSim(dropped);
    await h.sim.idle();
    expect((await h.submission(dropped)).state).toBe('running');
    await reconcileTick(dropped);
    const result = await h.finished(dropped);
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed', observedLabels: ['Dependency Issues'] });
    const jobs = await jobsOf(dropped);
    expect(jobs.map((job) => [job.name, job.conclusion]).sort()).toEqual([['format', 'success'], ['lint', 'success'], ['test (3.11)', 'failure']]);

    h.sim.faults.webhooks.fail({ event: 'workflow_run', action: 'completed' });
    const failedDelivery = await h.submit({ instanceId: 'demo-dependency', kind: 'reference' });
    await runCompletedInSim(failedDelivery);
    await h.sim.idle();
    expect((await h.submission(failedDelivery)).state).toBe('running');
    // The failed workflow_run delivery, plus the installation events sent before the webhook URL was set.
    expect(await h.parts.redeliverFailed()).toBeGreaterThanOrEqual(1);
    expect(await h.finished(failedDelivery)).toMatchObject({ state: 'completed', verdict: 'passed' });
    expect(await h.parts.redeliverFailed()).toBe(0);
    h.sim.faults.clear();
  }, 180_000);

  it('API 5xx and secondary rate limits are retried safely: one check run, right outcome', async () => {
    h.sim.faults.api({ method: 'POST', path: '/repos/{owner}/{repo}/check-runs', response: { kind: 'status', status: 502 } });
    h.sim.faults.api({ method: 'GET', path: '/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs', response: { kind: 'secondary-rate-limit', retryAfterSeconds: 1 } });
    h.sim.faults.api({ method: 'GET', path: '/repos/{owner}/{repo}/actions/jobs/{job_id}/logs', response: { kind: 'status', status: 500 }, times: 2 });
    h.sim.faults.api({ method: 'PATCH', path: '/repos/{owner}/{repo}/check-runs/{check_run_id}', response: { kind: 'too-many-requests', retryAfterSeconds: 1 } });
    h.sim.faults.api({ method: 'PATCH', path: '/repos/{owner}/{repo}/check-runs/{check_run_id}', response: { kind: 'status', status: 503 } });
    const before = h.sim.counters.snapshot();
    const id = await h.submit({ instanceId: 'demo-format', kind: 'baseline' });
    const result = await h.finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed', observedLabels: ['Code Formatting'] });
    expect(await completedCheckRun(id)).toMatchObject({ conclusion: 'failure' });
    expect(checkRunsOf(id)).toHaveLength(1);
    const delta = (key: string) => h.sim.counters.get(key) - (before[key] ?? 0);
    expect(delta('POST /repos/{owner}/{repo}/check-runs')).toBe(2);
    // the check run is looked up before each create (a takeover must find the first one): once before the failed
    // create, once before its retry
    expect(delta('GET /repos/{owner}/{repo}/commits/{ref}/check-runs')).toBe(2);
    expect(delta('GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs')).toBeGreaterThanOrEqual(2);
    expect(delta('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}')).toBeGreaterThanOrEqual(3);
    h.sim.faults.clear();
  }, 180_000);

  it('a fork still being created delays publishing (transient) until GitHub finishes it', async () => {
    await h.seedUpstream('calc2');
    h.sim.faults.forkStaysCreating(`${UPSTREAM_OWNER}/calc2`);
    const row = { ...h.demo.instances.find((instance) => instance.id === 'demo-lint')!.row, id: 'calc2-lint', repo_name: 'calc2' };
    await h.importInstances([row]);
    const id = await h.submit({ instanceId: 'calc2-lint', kind: 'baseline' });
    await waitFor(async () => h.sim.state.repos.get(`${BENCH_OWNER}/${UPSTREAM_OWNER}--calc2`.toLowerCase()), { timeoutMs: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await h.submission(id)).state).toBe('preparing');
    h.sim.faults.finishFork(`${BENCH_OWNER}/${UPSTREAM_OWNER}--calc2`);
    const result = await h.finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed', observedLabels: ['Code Linting'] });
    expect(await completedCheckRun(id)).toMatchObject({ conclusion: 'failure' });
    h.sim.faults.clear();
  }, 180_000);

  it('a run that never starts ends as no_run after the grace period (not a failure), and is cancelled', async () => {
    h.sim.faults.runNeverStarts({});
    const id = await h.submit({ instanceId: 'demo-lint', kind: 'reference' });
    const published = await waitFor(async () => {
      const body = await h.submission(id);
      return body.state === 'published' && typeof body.headSha === 'string' && simRunOf(body.headSha) !== undefined ? body : undefined;
    }, { timeoutMs: 30_000, describe: () => h.submission(id) });
    const grace = pipeline.config.pipeline.noRunGraceSeconds;
    await reconcileTick(id);
    expect((await h.submission(id)).state).toBe('published');
    pipeline.config.pipeline.noRunGraceSeconds = 1;
    try {
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await reconcileTick(id);
    } finally {
      pipeline.config.pipeline.noRunGraceSeconds = grace;
    }
    expect(await h.submission(id)).toMatchObject({ state: 'no_run', verdict: 'invalid', reason: 'no_run' });
    expect(await completedCheckRun(id)).toMatchObject({ conclusion: 'neutral' });
    expect(checkRunOf(id)?.output.summary).toContain('no run');
    const run = simRunOf(String(published.headSha));
    await waitFor(async () => (run?.attempts.at(-1)?.conclusion === 'cancelled' ? true : undefined), { timeoutMs: 10_000 });
    h.sim.faults.clear();
  }, 180_000);

  it('the check run\'s Re-run button queues the same submission as a new attempt; a GitHub re-run is recorded as attempt 2', async () => {
    const check = checkRunOf(firstFailing);
    expect(check).toBeDefined();
    h.sim.clickCheckRunAction(check!.id, 'rerun');
    const rerun = await waitFor(async () => {
      const rows = await h.env.deps.repos.submissions.list({ instanceId: 'demo-lint', limit: 100 });
      return rows.find((row) => row.idempotencyKey === `rerun-${firstFailing}-2`);
    }, { timeoutMs: 30_000 });
    expect(rerun.attempt).toBe(2);
    const result = await h.finished(rerun.id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'failed', observedLabels: ['Code Linting'], kind: 'baseline' });
    expect(String(result.branch)).toBe(`ci-replay/baseline/${rerun.id}-a2`);
    expect(await completedCheckRun(rerun.id)).toMatchObject({ conclusion: 'failure' });

    const simRun = simRunOf(String(result.headSha))!;
    h.sim.faults.rerun(simRun.id);
    const attempts = await waitFor(async () => {
      const runs = await h.env.deps.repos.ci.runsOf(rerun.id);
      return runs.some((run) => run.runAttempt === 2 && run.status === 'completed') ? runs : undefined;
    }, { timeoutMs: 60_000 });
    expect(attempts.map((run) => run.runAttempt).sort()).toEqual([1, 2]);
    await waitFor(async () => ((await jobsOf(rerun.id)).some((job) => job.conclusion === 'failure' && job.log !== null) ? true : undefined), { timeoutMs: 30_000 });
    expect(await h.submission(rerun.id)).toMatchObject({ state: 'completed', verdict: 'failed' });
  }, 180_000);

  it('every REST call the service made is one GitHub documents, with its required body fields (contract)', async () => {
    const validator = createSchemaValidator();
    const requests = h.sim.requests();
    expect(requests.length).toBeGreaterThan(20);
    const problems: string[] = [];
    const operations = new Set<string>();
    for (const request of requests) {
      const template = validator.findOperation(request.method, request.path);
      if (template === null) {
        problems.push(`${request.method} ${request.path} is not in GitHub's OpenAPI description`);
        continue;
      }
      operations.add(`${request.method} ${template}`);
      for (const field of validator.requiredBodyFields(request.method, template)) {
        if (request.body === null || !(field in request.body)) problems.push(`${request.method} ${template} without required field ${field}`);
      }
    }
    expect(problems).toEqual([]);
    for (const operation of ['POST /repos/{owner}/{repo}/check-runs', 'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', 'POST /repos/{owner}/{repo}/forks', 'POST /app/installations/{installation_id}/access_tokens']) {
      expect(operations, operation).toContain(operation);
    }
  }, 180_000);
});
