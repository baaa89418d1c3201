import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_OWNER, startGithubHarness, UPSTREAM_OWNER, type GithubHarness } from '../support/github-e2e/harness.js';
import type { SimCheckRun } from '../support/github-sim/index.js';
import { waitFor } from '../support/wait-for.js';

const BENCH_REPO = `${BENCH_OWNER}/${UPSTREAM_OWNER}--calc`;

describe('the pipeline end to end on the GitHub backend (simulator: REST, git, Actions runs, webhooks)', () => {
  let h: GithubHarness;

  beforeAll(async () => {
    h = await startGithubHarness({ env: { NO_RUN_GRACE_SECONDS: '3' } });
    await h.seedUpstream('calc');
    await h.importInstances(h.demo.instances.map((instance) => instance.row));
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const checkRunOf = (id: string): SimCheckRun | undefined => [...h.sim.state.checkRuns.values()].find((run) => run.externalId === id && run.owner === 'app');
  const checkRunsOf = (id: string): SimCheckRun[] => [...h.sim.state.checkRuns.values()].filter((run) => run.externalId === id && run.owner === 'app');
  const jobsOf = async (id: string) => {
    const runs = await h.env.deps.repos.ci.runsOf(id);
    const latest = [...runs].sort((a, b) => a.runAttempt - b.runAttempt).at(-1);
    return latest === undefined ? [] : h.env.deps.repos.ci.jobsOfRun(latest.id);
  };
  const simRunOf = (headSha: string) => [...h.sim.state.runs.values()].find((run) => run.headSha === headSha);

  it('a failing baseline goes queued → published → running → completed, with per-job outcomes, log, label and a completed check run', async () => {
    const id = await h.submit({ instanceId: 'demo-lint', kind: 'baseline' });
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

    const check = checkRunOf(id);
    expect(check).toMatchObject({ name: 'ci-replay', status: 'completed', conclusion: 'failure', headSha: result.headSha });
    expect(check?.detailsUrl).toBe(`http://ci-replay.test/v1/submissions/${id}`);
    expect(check?.output.summary).toContain('Lint with flake8');
    expect(check?.output.annotations.length).toBeGreaterThan(0);
    expect(JSON.stringify(check?.output.annotations)).toContain('F401');
    expect(check?.actions.map((action) => action.identifier)).toEqual(['rerun']);
    expect(String(result.checkRunId)).toBe(String(check?.id));
  });

  it('a passing reference completes green and its check run succeeds', async () => {
    const id = await h.submit({ instanceId: 'demo-format', kind: 'reference' });
    const result = await h.finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'passed', observedLabels: [] });
    expect(checkRunOf(id)).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect((await jobsOf(id)).every((job) => job.conclusion === 'success')).toBe(true);
  });
});
