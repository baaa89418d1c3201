/**
 * REST calls per submission on the GitHub backend, counted by the simulator per endpoint. A warm-up
 * submission creates the fork (one-time setup, reported separately); then a batch of passing submissions
 * (every demo instance with its fix) and a batch of failing ones (every demo instance unpatched: one failed
 * job each) run through the whole pipeline. Target: ≤ 4 calls for a passing submission, 4 + 1 per failed job
 * for a failing one. Git smart-HTTP (push) is not REST and is listed apart, as is token minting (amortized).
 * Run: `npx tsx bench/api-cost.ts [copies-per-instance]` (needs the test Postgres and Redis).
 */
import { startGithubHarness, type GithubHarness } from '../test/support/github-e2e/harness.js';
import { waitFor } from '../test/support/wait-for.js';

const copies = Number(process.argv[2] ?? 2);

const isGit = (key: string): boolean => key.includes('.git/');
const isToken = (key: string): boolean => key.endsWith('/access_tokens');

async function batch(h: GithubHarness, kind: 'reference' | 'baseline'): Promise<{ ids: string[]; counts: Record<string, number>; failedJobs: number }> {
  h.sim.counters.reset();
  const ids: string[] = [];
  for (let copy = 0; copy < copies; copy += 1) {
    for (const instance of h.demo.instances) ids.push(await h.submit({ instanceId: instance.id, kind }));
  }
  let failedJobs = 0;
  for (const id of ids) {
    const result = await h.finished(id, 180_000);
    if (result.state !== 'completed') throw new Error(`submission ${id} ended ${String(result.state)}`);
    await waitFor(async () => ([...h.sim.state.checkRuns.values()].some((run) => run.externalId === id && run.status === 'completed') ? true : undefined), { timeoutMs: 30_000 });
    const runs = await h.env.deps.repos.ci.runsOf(id);
    for (const run of runs) failedJobs += (await h.env.deps.repos.ci.jobsOfRun(run.id)).filter((job) => job.conclusion === 'failure').length;
  }
  await h.sim.idle();
  return { ids, counts: h.sim.counters.snapshot(), failedJobs };
}

function report(label: string, result: { ids: string[]; counts: Record<string, number>; failedJobs: number }): void {
  const n = result.ids.length;
  const rest = Object.entries(result.counts).filter(([key]) => !isGit(key) && !isToken(key)).sort(([a], [b]) => a.localeCompare(b));
  const total = rest.reduce((sum, [, count]) => sum + count, 0);
  console.log(`\n${label}: ${n} submissions, ${result.failedJobs} failed jobs (${(result.failedJobs / n).toFixed(2)} per submission)`);
  for (const [key, count] of rest) console.log(`  ${(count / n).toFixed(2).padStart(6)}  ${key}`);
  console.log(`  ${(total / n).toFixed(2).padStart(6)}  REST calls per submission (target ${label === 'passing' ? '≤ 4' : `≤ 4 + ${(result.failedJobs / n).toFixed(2)} = ${(4 + result.failedJobs / n).toFixed(2)}`})`);
  const other = Object.entries(result.counts).filter(([key]) => isGit(key) || isToken(key));
  for (const [key, count] of other) console.log(`  (not REST per submission) ${(count / n).toFixed(2)}  ${key}`);
}

const h = await startGithubHarness({ env: { NO_RUN_GRACE_SECONDS: '600' }, tuning: { retryAfterBaseMs: 20, writeIntervalMs: 0 } });
try {
  await h.seedUpstream('calc');
  await h.importInstances(h.demo.instances.map((instance) => instance.row));
  h.sim.counters.reset();
  const warm = await h.submit({ instanceId: h.demo.instances[0]!.id, kind: 'reference' });
  await h.finished(warm);
  await waitFor(async () => ([...h.sim.state.checkRuns.values()].some((run) => run.externalId === warm && run.status === 'completed') ? true : undefined), { timeoutMs: 30_000 });
  await h.sim.idle();
  console.log('one-time setup (fork, Actions, workflows, installation lookup, token) + first submission:');
  for (const [key, count] of Object.entries(h.sim.counters.snapshot()).sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${String(count).padStart(4)}  ${key}`);
  report('passing', await batch(h, 'reference'));
  report('failing', await batch(h, 'baseline'));
} finally {
  await h.close();
}
