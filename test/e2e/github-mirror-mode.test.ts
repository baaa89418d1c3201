import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_OWNER, startGithubHarness, UPSTREAM_OWNER, type GithubHarness } from '../support/github-e2e/harness.js';
import { waitFor } from '../support/wait-for.js';

const BENCH_REPO = `${BENCH_OWNER}/${UPSTREAM_OWNER}--calc`;

describe('GitHub backend in mirror mode (BENCH_REPO_MODE=mirror) and `repos sync`', () => {
  let h: GithubHarness;

  beforeAll(async () => {
    h = await startGithubHarness({ env: { NO_RUN_GRACE_SECONDS: '600', BENCH_REPO_MODE: 'mirror' } });
    await h.seedUpstream('calc');
    await h.importInstances(h.demo.instances.map((instance) => instance.row));
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('sync creates a plain benchmark repository; a submission pushes the upstream history into it and runs', async () => {
    expect(await h.parts.syncBenchRepos({ all: true })).toEqual([{ upstream: `${UPSTREAM_OWNER}/calc`, benchRepo: BENCH_REPO, ok: true }]);
    const repo = h.sim.state.repos.get(BENCH_REPO.toLowerCase());
    expect(repo).toMatchObject({ parentId: null, actionsEnabled: true, private: false });
    expect((await h.env.deps.repos.benchRepos.find('github', UPSTREAM_OWNER, 'calc'))).toMatchObject({ owner: BENCH_OWNER, name: `${UPSTREAM_OWNER}--calc`, mode: 'mirror', actionsEnabled: true });

    const id = await h.submit({ instanceId: 'demo-lint', kind: 'reference' });
    const result = await h.finished(id);
    expect(result).toMatchObject({ state: 'completed', verdict: 'passed' });
    await waitFor(async () => ([...h.sim.state.checkRuns.values()].find((run) => run.externalId === id)?.conclusion === 'success' ? true : undefined), { timeoutMs: 30_000 });
  });

  it('sync re-enables workflows GitHub disabled for inactivity', async () => {
    const repo = h.sim.state.repos.get(BENCH_REPO.toLowerCase())!;
    const workflow = repo.workflows.find((candidate) => candidate.path === '.github/workflows/ci.yml')!;
    workflow.state = 'disabled_inactivity';
    expect(await h.parts.syncBenchRepos({ instanceId: 'demo-lint' })).toMatchObject([{ ok: true }]);
    expect(workflow.state).toBe('active');
  });

  it('sync reports an unknown instance as invalid input', async () => {
    await expect(h.parts.syncBenchRepos({ instanceId: 'nope' })).rejects.toMatchObject({ kind: 'invalid_input', status: 404 });
  });
});
