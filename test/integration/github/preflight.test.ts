import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CiBackend, PreflightInput } from '../../../src/backends/ci-backend.js';
import { createGithubBackend } from '../../../src/backends/github/index.js';
import { createGithubApp } from '../../../src/github/index.js';
import { standardizeWorkflowText } from '../../../src/workflows/index.js';
import { DEFAULT_PERMISSIONS, startGithubSim, type GithubSim } from '../../support/github-sim/index.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

// A real workflow (BobTheBuidler/dank_mids, see the fixture's first line) that still reads a secret by a computed name.
const dankMids = readFileSync(join(import.meta.dirname, '../../fixtures/preflight/dank-mids-pytest.yaml'), 'utf8');
const workflow = { path: '.github/workflows/pytest.yaml', text: standardizeWorkflowText({ text: dankMids, path: '.github/workflows/pytest.yaml', options: { matrixStrategy: 'newest-python' } }).text };
const ACTIONS_PERMISSIONS = 'GET /repos/{owner}/{repo}/actions/permissions';
const ENABLE_ACTIONS = 'PUT /repos/{owner}/{repo}/actions/permissions';

describe('the GitHub backend preflight against the simulator', () => {
  let sim: GithubSim;
  let env: TestEnv;

  const backendFor = (benchOwner: string): CiBackend => {
    const logger = pino({ level: 'silent' });
    const github = createGithubApp({ appId: String(sim.appId), privateKey: sim.privateKeyPem, baseUrl: sim.url, logger, retryAfterBaseMs: 10, writeIntervalMs: 0 });
    return createGithubBackend({ github, benchRepos: env.deps.repos.benchRepos, logger, benchOwner, mode: 'fork', gitUrl: sim.url, publicUrl: 'http://ci-replay.test' });
  };
  const input = (upstream: string): PreflightInput => ({
    submissionId: 'preflight-test',
    instance: { id: 'i-1', repoOwner: 'octo', repoName: upstream, upstreamUrl: `https://github.com/octo/${upstream}.git`, shaFail: 'a'.repeat(40) },
    workflow,
    callees: [],
  });

  beforeAll(async () => {
    sim = await startGithubSim();
    sim.createInstallation({ account: 'bench' });
    sim.createInstallation({ account: 'locked', permissions: { ...DEFAULT_PERMISSIONS, administration: 'read' } });
    env = await createTestEnv();
  });
  afterAll(async () => {
    await env?.cleanup();
    await sim?.close();
  });

  it('none of the local limits: a secret read by a computed name is the only workflow blocker', async () => {
    const blockers = await backendFor('bench').preflight(input('not-created-yet'));
    expect(blockers.map((blocker) => [blocker.code, blocker.job, blocker.step, blocker.evidence])).toEqual([
      ['missing_secret', 'test', 'Setup brownie networks', '${{ secrets[matrix.provider] }}'],
    ]);
    // The benchmark repository does not exist yet: publishing creates it with Actions on, so that is no blocker.
    expect(sim.counters.get(ACTIONS_PERMISSIONS)).toBe(1);
  });

  it('Actions off on an existing benchmark repository are enabled as publishing would; no blocker', async () => {
    const repo = await sim.createRepo({ owner: 'bench', name: 'octo--calc', files: { 'README.md': 'calc\n' } });
    repo.actionsEnabled = false;
    sim.counters.reset();
    const blockers = await backendFor('bench').preflight(input('calc'));
    expect(blockers.map((blocker) => blocker.code)).toEqual(['missing_secret']);
    expect(sim.counters.get(ENABLE_ACTIONS)).toBe(1);
    expect(repo.actionsEnabled).toBe(true);
  });

  it('Actions off and GitHub refusing to enable them: actions_disabled, with GitHub\'s answer', async () => {
    const repo = await sim.createRepo({ owner: 'locked', name: 'octo--calc', files: { 'README.md': 'calc\n' } });
    repo.actionsEnabled = false;
    const blockers = await backendFor('locked').preflight(input('calc'));
    const disabled = blockers.filter((blocker) => blocker.code === 'actions_disabled');
    expect(disabled).toHaveLength(1);
    expect(disabled[0]).toMatchObject({ job: '*', evidence: 'locked/octo--calc' });
    expect(disabled[0]?.message).toMatch(/^GitHub Actions are disabled on the benchmark repository locked\/octo--calc and no workflow can run there; enabling them was refused: .*403/);
    expect(repo.actionsEnabled).toBe(false);
  });

  it('a benchmark repository synced recently with Actions on costs no API call', async () => {
    const row = await env.deps.repos.benchRepos.ensure({ backend: 'github', upstreamOwner: 'octo', upstreamName: 'synced', owner: 'bench', name: 'octo--synced', mode: 'fork', actionsEnabled: true });
    await env.deps.repos.benchRepos.markSynced(row.id, { actionsEnabled: true });
    sim.counters.reset();
    expect((await backendFor('bench').preflight(input('synced'))).map((blocker) => blocker.code)).toEqual(['missing_secret']);
    expect(sim.counters.total()).toBe(0);
  });
});
