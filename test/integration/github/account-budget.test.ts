import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGithubApp, createRedisRateBudget, type BudgetLimits, type GithubApp } from '../../../src/github/index.js';
import { startGithubSim, type GithubSim } from '../../support/github-sim/index.js';
import { testRedisUrl } from '../../support/test-database.js';

/**
 * The per-account budget counted ahead in Redis (issue 19), against the simulator's per-installation limits. The
 * windows are shortened on both sides (an hour → 4 s, a minute → 2 s) so a limit is replayed in seconds; the
 * counting is the same as with GitHub's windows.
 */
describe('per-account REST and write budget counted ahead in Redis', () => {
  const windows = { restMs: 4000, writeMs: 2000, slackMs: 500 };
  const simRate = { restPerHour: 10, restWindowMs: windows.restMs, writesPerMinute: 3, writeWindowMs: windows.writeMs };
  const redisA = new Redis(testRedisUrl());
  const redisB = new Redis(testRedisUrl());
  const prefix = `test-account-budget-${randomBytes(4).toString('hex')}`;
  const silent = pino({ level: 'silent' });
  let sim: GithubSim;
  const heads = new Map<string, string>();

  /** A worker process: its own App client and Redis connection; no retries, so any 403/429 surfaces as an error. */
  const worker = (redis: Redis, account: string, limits: BudgetLimits | null, keyPrefix = prefix): GithubApp =>
    createGithubApp({
      appId: String(sim.appId), privateKey: sim.privateKeyPem, baseUrl: sim.url, logger: silent, retries: 0, retryAfterBaseMs: 10, writeIntervalMs: 0, maxInlineWaitMs: 30_000,
      budget: createRedisRateBudget(redis, keyPrefix, { reserve: 1, windows }),
      ...(limits === null ? {} : { limits: async (installation) => (installation.account === account ? limits : null) }),
    });

  /** Five check runs and three reads per worker, all at once, on the account's installation. */
  const burst = async (apps: GithubApp[], account: string): Promise<PromiseSettledResult<unknown>[]> => {
    const calls = await Promise.all(
      apps.map(async (app) => {
        const client = await app.installationFor(account);
        return [
          ...Array.from({ length: 5 }, (_, i) => client.request('POST /repos/{owner}/{repo}/check-runs', { owner: account, repo: 'repo', name: `check-${i}`, head_sha: heads.get(account) })),
          ...Array.from({ length: 3 }, () => client.request('GET /repos/{owner}/{repo}', { owner: account, repo: 'repo' })),
        ];
      }),
    );
    return Promise.allSettled(calls.flat());
  };

  beforeAll(async () => {
    sim = await startGithubSim();
    for (const account of ['budgeted', 'unbudgeted', 'spent']) {
      const installation = sim.createInstallation({ account });
      sim.limits.setInstallationRate(installation.id, simRate);
      await sim.createRepo({ owner: account, name: 'repo', files: { 'README.md': 'hi\n' } });
    }
    const probe = createGithubApp({ appId: String(sim.appId), privateKey: sim.privateKeyPem, baseUrl: sim.url, logger: silent });
    for (const account of ['budgeted', 'unbudgeted', 'spent']) {
      const ref = await (await probe.installationFor(account)).request<{ object: { sha: string } }>('GET /repos/{owner}/{repo}/git/ref/{ref}', { owner: account, repo: 'repo', ref: 'heads/main' });
      heads.set(account, ref.data.object.sha);
    }
    sim.state.rate.clear();
  });
  afterAll(async () => {
    const keys = await redisA.keys(`${prefix}*`);
    if (keys.length > 0) await redisA.del(...keys);
    redisA.disconnect();
    redisB.disconnect();
    await sim?.close();
  });

  it('two processes sharing the budget stay within the installation limits: no 403 and no 429', async () => {
    const limits = { restPerHour: simRate.restPerHour, writesPerMinute: simRate.writesPerMinute };
    sim.counters.reset();
    const results = await burst([worker(redisA, 'budgeted', limits), worker(redisB, 'budgeted', limits)], 'budgeted');
    const failures = results.filter((result) => result.status === 'rejected');
    expect(failures).toEqual([]);
    // Every request reached GitHub once: 16 requests, more than one window's 10 REST calls and 3 writes.
    expect(sim.counters.get('POST /repos/{owner}/{repo}/check-runs')).toBe(10);
    expect(sim.counters.get('GET /repos/{owner}/{repo}')).toBe(6);
  }, 180_000);

  it('without a configured budget the same burst is throttled by the simulator (the test above can fail)', async () => {
    const results = await burst([worker(redisA, 'unbudgeted', null), worker(redisB, 'unbudgeted', null)], 'unbudgeted');
    const limited = results.filter((result) => result.status === 'rejected' && (result.reason as { kind?: string }).kind === 'rate_limited');
    expect(limited.length).toBeGreaterThan(0);
  }, 180_000);

  it('a budget spent for longer than the inline wait surfaces as rate_limited before anything is sent', async () => {
    const app = createGithubApp({
      appId: String(sim.appId), privateKey: sim.privateKeyPem, baseUrl: sim.url, logger: silent, retries: 0, writeIntervalMs: 0,
      budget: createRedisRateBudget(redisA, `${prefix}-spent`, { reserve: 1, maxWaitMs: 100, windows: { ...windows, writeMs: 60_000 } }),
      limits: async () => ({ writesPerMinute: 1 }),
    });
    const client = await app.installationFor('spent');
    sim.counters.reset();
    await client.request('POST /repos/{owner}/{repo}/check-runs', { owner: 'spent', repo: 'repo', name: 'first', head_sha: heads.get('spent') });
    const error = await client.request('POST /repos/{owner}/{repo}/check-runs', { owner: 'spent', repo: 'repo', name: 'second', head_sha: heads.get('spent') }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'rate_limited' });
    expect((error as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(50_000);
    expect(sim.counters.get('POST /repos/{owner}/{repo}/check-runs')).toBe(1);
    // Reads are not writes: they still go out.
    await client.request('GET /repos/{owner}/{repo}', { owner: 'spent', repo: 'repo' });
    expect(sim.counters.get('GET /repos/{owner}/{repo}')).toBe(1);
  });
});
