import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGithubSim, type GithubSim } from '../../support/github-sim/index.js';

/** Per-installation rate limits and per-account job limits of the simulator (issue 19). */
let sim: GithubSim;
beforeAll(async () => {
  sim = await startGithubSim();
});
afterAll(async () => {
  await sim.close();
});

const call = async (token: string, method: string, path: string, body?: unknown): Promise<Response> =>
  fetch(`${sim.url}${path}`, { method, headers: { authorization: `token ${token}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

describe('simulator limits', () => {
  it('an installation past its REST budget gets 403 with x-ratelimit-remaining 0 until the reset', async () => {
    const installation = sim.createInstallation({ account: 'rest-limited' });
    await sim.createRepo({ owner: 'rest-limited', name: 'r', files: { 'README.md': 'x' } });
    sim.limits.setInstallationRate(installation.id, { restPerHour: 2 });
    const token = sim.installationToken(installation.id);
    const first = await call(token, 'GET', '/repos/rest-limited/r');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await call(token, 'GET', '/repos/rest-limited/r')).status).toBe(200);
    const refused = await call(token, 'GET', '/repos/rest-limited/r');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect(((await refused.json()) as { message: string }).message).toMatch(/API rate limit exceeded for installation ID/);
  });

  it('content-creating requests past the per-minute limit get a secondary limit (403 + retry-after) or 429', async () => {
    const installation = sim.createInstallation({ account: 'write-limited' });
    await sim.createRepo({ owner: 'write-limited', name: 'r', files: { 'README.md': 'x' } });
    sim.limits.setInstallationRate(installation.id, { writesPerMinute: 1 });
    const token = sim.installationToken(installation.id);
    const body = { name: 'ci-replay', head_sha: '0'.repeat(40) };
    expect((await call(token, 'POST', '/repos/write-limited/r/check-runs', body)).status).not.toBe(403);
    const secondary = await call(token, 'POST', '/repos/write-limited/r/check-runs', body);
    expect(secondary.status).toBe(403);
    expect(Number(secondary.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await secondary.json()) as { message: string }).message).toMatch(/secondary rate limit/);
    // Reads are not content-creating.
    expect((await call(token, 'GET', '/repos/write-limited/r')).status).toBe(200);
    sim.limits.setInstallationRate(installation.id, { writesPerMinute: 1, writeLimitStatus: 429 });
    const tooMany = await call(token, 'POST', '/repos/write-limited/r/check-runs', body);
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get('retry-after')).not.toBeNull();
  });

  it('jobs beyond an account limit wait for a slot, first come first served', async () => {
    sim.limits.setConcurrentJobs('jobs-limited', 1);
    const first = await sim.limits.acquireJob('jobs-limited');
    let second: (() => void) | null = null;
    const waiting = sim.limits.acquireJob('jobs-limited').then((release) => {
      second = release;
    });
    expect(sim.limits.jobs('jobs-limited')).toMatchObject({ running: 1, queued: 1, peak: 1, peakDemand: 2 });
    first();
    await waiting;
    expect(second).not.toBeNull();
    expect(sim.limits.jobs('jobs-limited')).toMatchObject({ running: 1, queued: 0, peak: 1 });
  });
});
