import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGithubApp, type GithubApp } from '../../../src/github/index.js';
import { startGithubSim, type GithubSim } from '../../support/github-sim/index.js';

describe('GitHub App client against the simulator', () => {
  let sim: GithubSim;
  let github: GithubApp;

  beforeAll(async () => {
    sim = await startGithubSim();
    sim.createInstallation({ account: 'bench' });
    await sim.createRepo({ owner: 'bench', name: 'repo', files: { 'README.md': 'hi\n' } });
    github = createGithubApp({ appId: String(sim.appId), privateKey: sim.privateKeyPem, baseUrl: sim.url, logger: pino({ level: 'silent' }), retryAfterBaseMs: 10, writeIntervalMs: 0 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  it('authenticates as the App and as the installation (token cached), and paginates', async () => {
    const client = await github.installationFor('bench');
    expect(client.installationId).toBeGreaterThan(0);
    const token = await client.token();
    expect(await client.token()).toBe(token);
    expect(sim.counters.get('POST /app/installations/{installation_id}/access_tokens')).toBe(1);
    const repos = await client.paginate<{ full_name: string }>('GET /installation/repositories');
    expect(repos.map((repo) => repo.full_name)).toContain('bench/repo');
    await expect(github.installationFor('nobody')).rejects.toMatchObject({ kind: 'permanent', code: 'github_not_installed' });
  });

  it('retries idempotent requests on 5xx and secondary limits, never a POST that may have taken effect', async () => {
    const client = await github.installationFor('bench');
    sim.counters.reset();
    sim.faults.api({ method: 'GET', path: '/repos/{owner}/{repo}', response: { kind: 'status', status: 502 }, times: 2 });
    expect((await client.request<{ full_name: string }>('GET /repos/{owner}/{repo}', { owner: 'bench', repo: 'repo' })).data.full_name).toBe('bench/repo');
    expect(sim.counters.get('GET /repos/{owner}/{repo}')).toBe(3);

    sim.faults.api({ method: 'POST', path: '/repos/{owner}/{repo}/check-runs', response: { kind: 'status', status: 502 } });
    const head = (await client.request<{ object: { sha: string } }>('GET /repos/{owner}/{repo}/git/ref/{ref}', { owner: 'bench', repo: 'repo', ref: 'heads/main' })).data.object.sha;
    await expect(client.request('POST /repos/{owner}/{repo}/check-runs', { owner: 'bench', repo: 'repo', name: 'x', head_sha: head })).rejects.toMatchObject({ kind: 'transient' });
    expect(sim.counters.get('POST /repos/{owner}/{repo}/check-runs')).toBe(1);

    sim.faults.api({ method: 'POST', path: '/repos/{owner}/{repo}/check-runs', response: { kind: 'secondary-rate-limit', retryAfterSeconds: 1 } });
    const created = await client.request<{ id: number }>('POST /repos/{owner}/{repo}/check-runs', { owner: 'bench', repo: 'repo', name: 'x', head_sha: head });
    expect(created.status).toBe(201);
    expect(sim.counters.get('POST /repos/{owner}/{repo}/check-runs')).toBe(3);
  });

  it('a primary limit far away surfaces at once as rate_limited with the wait, and 404 as permanent', async () => {
    const limited = createGithubApp({ appId: String(sim.appId), privateKey: sim.privateKeyPem, baseUrl: sim.url, logger: pino({ level: 'silent' }), retryAfterBaseMs: 10, maxInlineWaitMs: 1000 });
    const client = await limited.installationFor('bench');
    sim.faults.api({ method: 'GET', path: '/repos/{owner}/{repo}/actions/runs', response: { kind: 'primary-rate-limit', resetInSeconds: 600 } });
    const started = Date.now();
    const error = await client.request('GET /repos/{owner}/{repo}/actions/runs', { owner: 'bench', repo: 'repo' }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error).toMatchObject({ kind: 'rate_limited' });
    expect((error as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(500_000);
    sim.state.rate.clear();
    await expect((await github.installationFor('bench')).request('GET /repos/{owner}/{repo}', { owner: 'bench', repo: 'missing' })).rejects.toMatchObject({ kind: 'permanent', code: 'github_not_found', status: 404 });
  });
});
