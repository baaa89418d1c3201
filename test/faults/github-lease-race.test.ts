import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstallationClient } from '../../src/github/index.js';
import type { PipelineDeps } from '../../src/pipeline/context.js';
import { createLeaseKeeper } from '../../src/pipeline/lease-keeper.js';
import { prepareSubmission } from '../../src/pipeline/prepare.js';
import { pipelineDeps } from '../../src/workers.js';
import { BENCH_OWNER, startGithubHarness, UPSTREAM_OWNER, type GithubHarness } from '../support/github-e2e/harness.js';
import { waitFor } from '../support/wait-for.js';

const BENCH_REPO = `${BENCH_OWNER}/${UPSTREAM_OWNER}--calc`;
const CHECK_RUN_CREATE = 'POST /repos/{owner}/{repo}/check-runs';

/**
 * Issue 13: a lease that lapses mid-publish must not let a takeover publish a second time. Deterministic: the
 * harness's worker (A) is held after its push, just before it creates the check run (holding its publish lock);
 * its lease is then taken over (what the sweep and a second prepare do once it expired); a second prepare (B) runs
 * at that moment; then A goes on. One branch, one workflow run, one check run, one result.
 */
describe('GitHub backend: a publish interrupted by a lease takeover is not repeated', () => {
  let h: GithubHarness;
  let pipeline: PipelineDeps;
  /** Set while A must stop before creating the check run of this submission. */
  let hold: { externalId: string; reached: () => void; resume: Promise<void> } | null = null;

  beforeAll(async () => {
    // The sweep stays out of the way: the test does the takeover itself, at a chosen moment.
    h = await startGithubHarness({ env: { NO_RUN_GRACE_SECONDS: '600', RECOVERY_INTERVAL_SECONDS: '600', WORKER_CONCURRENCY: '1' } });
    pipeline = await pipelineDeps(h.env.deps);
    // The one hook: check-run creation of the held submission waits (the backend asks for its client each time).
    const github = h.parts.github;
    const installationFor = github.installationFor.bind(github);
    github.installationFor = async (account) => {
      const client = await installationFor(account);
      return new Proxy(client, {
        get(target, prop) {
          const value: unknown = Reflect.get(target, prop, target);
          if (prop !== 'request' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
          const request = value.bind(target) as InstallationClient['request'];
          return async (route: string, params?: Record<string, unknown>) => {
            const held = hold;
            if (route === CHECK_RUN_CREATE && held !== null && params?.external_id === held.externalId) {
              hold = null;
              held.reached();
              await held.resume;
            }
            return request(route, params);
          };
        },
      });
    };
    await h.seedUpstream('calc');
    await h.importInstances(h.demo.instances.map((instance) => instance.row));
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  const branches = async (id: string): Promise<string[]> => {
    const repo = h.sim.state.repos.get(BENCH_REPO.toLowerCase());
    if (repo === undefined) return [];
    const { stdout } = await promisify(execFile)('git', ['--git-dir', repo.gitDir, 'for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/ci-replay/']);
    return stdout.split('\n').filter((line) => line.includes(id));
  };

  it('the first worker held mid-publish, its lease taken over, a second prepare run: one branch, run, check run and result', async () => {
    let reached!: () => void;
    let resume!: () => void;
    const atCheckRun = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const resumed = new Promise<void>((resolve) => {
      resume = resolve;
    });
    // The id is known only once submitted: hold whatever this service creates next for it.
    const id = await (async () => {
      const submitted = h.submit({ instanceId: 'demo-lint', kind: 'baseline' });
      hold = { externalId: '', reached, resume: resumed };
      const value = await submitted;
      hold = { externalId: value, reached, resume: resumed };
      return value;
    })();
    await atCheckRun;
    // Whatever happens below, A is let go at the end, so the harness can close.
    try {
      await raceAndFinish(id, resume);
    } finally {
      resume();
    }
  }, 180_000);

  async function raceAndFinish(id: string, resume: () => void): Promise<void> {
    // A has pushed the branch and holds its publish lock; its lease now lapses and a takeover takes it.
    const logger = pino({ level: 'silent' });
    const takeover = createLeaseKeeper({ repos: h.env.deps.repos, seconds: 60, logger, owner: 'takeover-b' });
    const taken = await h.env.deps.db.prisma.submission.updateMany({
      where: { id, state: 'preparing' },
      data: { leaseOwner: takeover.owner, leaseExpiresAt: new Date(Date.now() + 60_000), resumeCount: { increment: 1 } },
    });
    expect(taken.count).toBe(1);
    const second = { ...pipeline, leases: takeover };
    // B meets A's publish under way: refused as transient (its job is retried), nothing published by it.
    await expect(prepareSubmission(second, id, logger)).rejects.toMatchObject({ kind: 'transient', code: 'publish_in_progress' });
    const checkRunsOf = () => [...h.sim.state.checkRuns.values()].filter((run) => run.externalId === id && run.owner === 'app');
    expect(checkRunsOf()).toHaveLength(0);

    // A goes on: it creates the check run, but may not record `published`: the lease is no longer its own.
    resume();
    await waitFor(async () => (checkRunsOf().length > 0 ? true : undefined), { timeoutMs: 30_000 });
    const row = await waitFor(async () => {
      const found = await h.env.deps.db.prisma.submission.findUnique({ where: { id } });
      return found?.leaseOwner === null ? found : undefined;
    }, { timeoutMs: 30_000 });
    expect(row.state).toBe('preparing');
    expect(row.publishedAt).toBeNull();

    // B again (its retry): A's lock is free once A let go; the push is a no-op, the check run is found, not created.
    await waitFor(async () => {
      try {
        await prepareSubmission(second, id, logger);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === 'publish_in_progress') return undefined;
        throw error;
      }
    }, { timeoutMs: 60_000, intervalMs: 250 });
    const done = await h.finished(id);
    expect(done).toMatchObject({ state: 'completed', verdict: 'failed' });
    await takeover.stop();

    const final = await h.env.deps.db.prisma.submission.findUnique({ where: { id } });
    expect(final).toMatchObject({ leaseOwner: null, leaseExpiresAt: null });
    // The check run is completed right after the verdict is written.
    await waitFor(async () => (checkRunsOf().every((run) => run.status === 'completed') ? true : undefined), { timeoutMs: 30_000, describe: async () => checkRunsOf() });
    const checks = checkRunsOf();
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ status: 'completed', conclusion: 'failure', headSha: final?.headSha });
    expect(String(final?.checkRunId)).toBe(String(checks[0]?.id));
    expect(await branches(id)).toEqual([`refs/heads/${final?.branch} ${final?.headSha}`]);
    expect([...h.sim.state.runs.values()].filter((run) => run.headSha === final?.headSha)).toHaveLength(1);
    expect(await h.env.deps.repos.ci.runsOf(id)).toHaveLength(1);
  }
});
