import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leastLoaded, type PoolAccount } from '../../../src/scheduler/index.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';

/** The BenchAccount table and stable upstream → account assignments in Postgres (migration 20261202140000). */
let env: TestEnv;
beforeAll(async () => {
  env = await createTestEnv();
}, 180_000);
afterAll(async () => {
  await env.cleanup();
});

const choose = (accounts: { owner: string; concurrentJobs: number; state: string }[], counts: Map<string, number>): string | null =>
  leastLoaded(accounts.map((a) => ({ owner: a.owner, concurrentJobs: a.concurrentJobs, state: a.state as PoolAccount['state'] })), counts);

describe('account assignments', () => {
  it('assigns each upstream once, to the least-loaded account, stable until moved', async () => {
    const accounts = env.deps.repos.benchAccounts;
    await accounts.upsert({ owner: 'bench-a', concurrentJobs: 20 });
    await accounts.upsert({ owner: 'bench-b', concurrentJobs: 40, runnerLabels: ['arc'] });
    // Concurrent first assignments agree (advisory lock): one row per upstream.
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => accounts.assign('up', `p${i % 3}`, choose)));
    for (let i = 0; i < 3; i += 1) expect(new Set(results.filter((r) => r?.upstreamName === `p${i}`).map((r) => r?.account)).size).toBe(1);
    const counts = await accounts.assignmentCounts();
    expect(counts.get('bench-b')).toBe(2);
    expect(counts.get('bench-a')).toBe(1);
    // Stable: asking again returns the same account, even once that account is draining.
    const before = await accounts.findAssignment('up', 'p0');
    await accounts.setState(before?.account ?? '', 'draining');
    expect((await accounts.assign('up', 'p0', choose))?.account).toBe(before?.account);
    // New upstreams go to the accounts still taking work.
    const other = before?.account === 'bench-a' ? 'bench-b' : 'bench-a';
    expect((await accounts.assign('up', 'new', choose))?.account).toBe(other);
    // The operator moves the draining account's upstreams.
    const moved = await accounts.move({ from: before?.account ?? '' }, other);
    expect(moved).toBeGreaterThan(0);
    const after = await accounts.findAssignment('up', 'p0');
    expect(after?.account).toBe(other);
    expect(after?.movedAt).not.toBeNull();
    expect((await accounts.list()).map((a) => [a.owner, a.state, a.runnerLabels])).toEqual([
      ['bench-a', before?.account === 'bench-a' ? 'draining' : 'active', []],
      ['bench-b', before?.account === 'bench-b' ? 'draining' : 'active', ['arc']],
    ]);
  });

  it('assigns nothing when no account takes new work', async () => {
    const accounts = env.deps.repos.benchAccounts;
    await accounts.setState('bench-a', 'removed');
    await accounts.setState('bench-b', 'removed');
    expect(await accounts.assign('up', 'orphan', choose)).toBeNull();
    expect(await accounts.setState('nobody', 'removed')).toBeNull();
  });
});
