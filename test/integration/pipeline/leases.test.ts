import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceInput } from '../../../src/db/index.js';
import { createLeaseKeeper } from '../../../src/pipeline/lease-keeper.js';
import { jobId } from '../../../src/queue/index.js';
import { createTestEnv, type TestEnv } from '../../support/test-env.js';
import { waitFor } from '../../support/wait-for.js';

let env: TestEnv;

const instance: InstanceInput = {
  id: 'leases-1', dataset: 'leases', language: 'Python', repoOwner: 'fixture', repoName: 'app', sourceRepoOwner: null, upstreamUrl: 'file:///nowhere',
  headBranch: 'main', workflowName: 'CI', workflowFilename: 'ci.yml', workflowPath: '.github/workflows/ci.yml', workflow: 'name: CI\non: push\njobs: {}\n',
  shaFail: 'a'.repeat(40), shaSuccess: null, diff: '', changedFiles: [], commitDate: null, logs: [], labels: ['Test Failure'], rawLabels: [], protectedPaths: [],
  oracleSha: null, subtasks: null, basePassingTests: [], pythonVersion: null, installCommand: null, contentHash: 'x', metadata: {},
};

beforeAll(async () => {
  env = await createTestEnv();
  await env.deps.repos.instances.upsert(instance);
});
afterAll(async () => {
  await env?.cleanup();
});

async function newSubmission(): Promise<string> {
  const [id] = await env.deps.repos.submissions.createMany([{ instanceId: instance.id, runId: null, kind: 'candidate', patch: 'x', patchSha256: 'x', idempotencyKey: null, requestHash: null }]);
  return id ?? '';
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('submission leases in Postgres', () => {
  it('one holder at a time; an expired lease is taken over as one resume; renewal says which leases are still held', async () => {
    const { leases, submissions } = env.deps.repos;
    const id = await newSubmission();
    expect(await leases.acquire(id, 'worker-a', 1)).toMatchObject({ id, leaseOwner: 'worker-a', resumeCount: 0 });
    expect(await leases.acquire(id, 'worker-b', 1)).toBeNull();
    expect(await leases.acquire(id, 'worker-a', 1)).not.toBeNull();
    expect(await leases.renew('worker-a', 1)).toContain(id);
    await sleep(1100);
    // worker-a did not renew in time: worker-b takes over, counted as a resume.
    expect(await leases.acquire(id, 'worker-b', 30)).toMatchObject({ leaseOwner: 'worker-b', resumeCount: 1 });
    expect(await leases.renew('worker-a', 30)).not.toContain(id);
    expect(await leases.renew('worker-b', 30)).toContain(id);
    // A final state ends the lease.
    await submissions.transition(id, ['queued'], 'cancelled', { verdict: 'invalid', reason: 'cancelled' });
    expect(await submissions.getSummary(id)).toMatchObject({ leaseOwner: null, leaseExpiresAt: null });
    expect(await leases.renew('worker-b', 30)).not.toContain(id);
    expect(await leases.acquire(id, 'worker-b', 30)).toBeNull();
  });

  it('the sweep finds expired leases past queued (and unleased rows untouched for a lease), and claims each once', async () => {
    const { leases, submissions } = env.deps.repos;
    const held = await newSubmission();
    const dead = await newSubmission();
    const handedOver = await newSubmission();
    for (const id of [held, dead, handedOver]) await submissions.transition(id, ['queued'], 'preparing');
    await leases.acquire(held, 'alive', 60);
    await leases.acquire(dead, 'dead', 1);
    await leases.acquire(handedOver, 'finished-prepare', 60);
    expect(await leases.release(handedOver, 'finished-prepare', 0)).toBe(true);
    await sleep(1100);
    const expired = (await leases.findExpired(100, 3600)).filter((row) => [held, dead, handedOver].includes(row.id));
    expect(expired.map((row) => [row.id, row.leaseOwner]).sort()).toEqual([[dead, 'dead'], [handedOver, null]].sort());
    // Only from the owner seen, only while still expired: a second sweep (or a late renewal) loses the race.
    expect(await leases.claimExpired(dead, 'someone-else', 30, true)).toBeNull();
    expect(await leases.claimExpired(dead, 'dead', 30, true)).toEqual({ resumeCount: 1 });
    expect(await leases.claimExpired(dead, 'dead', 30, true)).toBeNull();
    expect(await leases.claimExpired(handedOver, null, 30, false)).toEqual({ resumeCount: 0 });
    expect((await leases.findExpired(100, 3600)).map((row) => row.id)).not.toContain(dead);
    // A row without any lease counts as expired once untouched for the grace period.
    // A queued row a prepare job took counts once its lease expired; a queued row nobody took (its queue job holds it) never does.
    const taken = await newSubmission();
    const waiting = await newSubmission();
    await leases.acquire(taken, 'dead-prepare', 1);
    await sleep(1100);
    const found = (await leases.findExpired(100, 1)).map((row) => row.id);
    expect(found).toContain(taken);
    expect(found).not.toContain(waiting);
    expect(await leases.claimExpired(taken, 'dead-prepare', 30, true)).toEqual({ resumeCount: 1 });
    const legacy = await newSubmission();
    await submissions.transition(legacy, ['queued'], 'preparing');
    expect((await leases.findExpired(100, 3600)).map((row) => row.id)).not.toContain(legacy);
    await sleep(1100);
    expect((await leases.findExpired(100, 1)).map((row) => row.id)).toContain(legacy);
  });

  it('the keeper renews its leases, and aborts the holder whose lease someone else took', async () => {
    const keeper = createLeaseKeeper({ repos: env.deps.repos, seconds: 2, logger: env.logger, owner: 'keeper-1' });
    const kept = await newSubmission();
    const stolen = await newSubmission();
    const a = await keeper.acquire(kept);
    const b = await keeper.acquire(stolen);
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(keeper.held()).toBe(2);
    // Past one lease: still held, because renewed every third of it.
    await sleep(2500);
    expect(await env.deps.repos.leases.acquire(kept, 'thief', 60)).toBeNull();
    // Another worker takes the second one over (as the sweep would once it expired).
    await env.deps.db.pool.query(`UPDATE "Submission" SET "leaseOwner" = 'thief' WHERE "id" = $1`, [stolen]);
    await waitFor(async () => (b!.signal.aborted ? true : undefined), { timeoutMs: 3000 });
    expect(b!.ended()).toBe('lost');
    expect(a!.ended()).toBeNull();
    await a!.release(0);
    expect(await env.deps.repos.submissions.getSummary(kept)).toMatchObject({ leaseOwner: null });
    expect(keeper.held()).toBe(0);
    // Hand-back on shutdown: the holder is told, and the lease stays held until released.
    const c = await keeper.acquire(await newSubmission());
    keeper.handBackAll();
    expect(c!.ended()).toBe('shutdown');
    expect(keeper.held()).toBe(1);
    await keeper.stop();
    expect(await env.deps.repos.submissions.getSummary(c!.submission.id)).toMatchObject({ leaseOwner: null });
  });
});

describe('Redis is a cache: queue jobs re-created from Postgres', () => {
  it('inspect tells pending, missing and finished jobs apart; ensure adds the missing and replaces the finished', async () => {
    const { queues } = env.deps;
    await queues.add('finalize', { submissionId: 'pending' }, { jobId: jobId('finalize', 'pending') });
    expect(await queues.inspect('finalize', [jobId('finalize', 'pending'), jobId('finalize', 'gone')])).toEqual(['pending', 'missing']);
    expect(await queues.ensure('finalize', [
      { payload: { submissionId: 'pending' }, options: { jobId: jobId('finalize', 'pending') } },
      { payload: { submissionId: 'gone' }, options: { jobId: jobId('finalize', 'gone'), lifo: true } },
    ])).toEqual(['present', 'added']);
    expect(await queues.inspect('finalize', [jobId('finalize', 'gone')])).toEqual(['pending']);
  });

  it('the recovery sweep re-enqueues queued submissions whose prepare job Redis lost, and re-registers a lost schedule once', async () => {
    const ids = [await newSubmission(), await newSubmission()];
    await env.deps.queues.addBulk('prepare', ids.map((id) => ({ payload: { submissionId: id }, options: { jobId: jobId('submission', id) } })));
    await env.deps.repos.submissions.markEnqueued(ids);
    // Redis loses the first job (as FLUSHALL would); the row was enqueued once, so the old sweep never looked at it again.
    await env.deps.redis.del(`${env.config.queuePrefix}:prepare:${jobId('submission', ids[0]!)}`);
    expect(await env.deps.queues.inspect('prepare', ids.map((id) => jobId('submission', id)))).toEqual(['missing', 'pending']);
    expect(await env.deps.submissions.recover(0)).toBeGreaterThanOrEqual(1);
    expect(await env.deps.queues.inspect('prepare', ids.map((id) => jobId('submission', id)))).toEqual(['pending', 'pending']);
    expect(await env.deps.queues.ensureSchedule('recover-test', 60_000, { task: 'recover' })).toBe(true);
    expect(await env.deps.queues.ensureSchedule('recover-test', 60_000, { task: 'recover' })).toBe(false);
  });
});
