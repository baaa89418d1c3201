/**
 * A campaign at scale on the GitHub simulator (issue 19): N runs (default 2,000) with realistic job counts and
 * durations, time-scaled, on 1, 2 and 4 benchmark accounts of the pool. Prints per configuration: wall time against
 * the bound (total job-time / total concurrent capacity), peak concurrent jobs per account and the peak demand
 * (running + queued at GitHub: above the limit means the scheduler over-published), REST calls per submission, and
 * the start latency of an interactive submission made mid-campaign.
 *
 * What it drives (test/support/pool-campaign.ts): the real scheduler (src/scheduler, Redis slots, priorities, fair
 * share) on the shared Redis, the real GitHub App client (src/github), and the simulator with per-account job limits
 * and the synthetic runner. The pipeline's publish and record steps are replaced by the simulator calls they make
 * (publish: workflow dispatch instead of the git push + create check run; record: list the attempt's jobs + complete
 * the check run); job and run completions come back by signed webhook. Not driven: Postgres, git, log archiving.
 *
 * Workload: jobs per run drawn from {1: 30%, 2: 20%, 3: 20%, 4: 15%, 6: 10%, 8: 5%} (mean 2.9; the campaign
 * is 12,000 jobs over 4,000 runs); job durations log-normal, median 6 min, σ 0.8, capped at 60 min (mean ≈ 8 min:
 * 12,000 jobs on one 20-job account ≈ 100 hours, the figure). 200 upstream repositories.
 *
 * Run: `npx tsx bench/campaign-scale.ts [N] [--accounts 1,2,4] [--limit 20] [--wall 60] [--seed 19]`
 * (`--wall`: the bound in wall seconds each configuration is time-scaled to).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { toPoolAccount } from '../src/scheduler/index.js';
import { drawDuration, seededRandom, type DurationDistribution } from '../test/support/github-sim/runs/synthetic-runner.js';
import { startPoolCampaign, type CampaignSubmission } from '../test/support/pool-campaign.js';
import { testRedisUrl } from '../test/support/test-database.js';
import { startCampaignTrace } from './campaign-scale-trace.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : (args[index + 1] ?? fallback);
};
const positional = args.filter((arg, index) => !arg.startsWith('--') && !args[index - 1]?.startsWith('--'));
const total = Number(positional[0] ?? 2000);
const accountCounts = flag('accounts', '1,2,4').split(',').map(Number);
const limit = Number(flag('limit', '20'));
const wallSeconds = Number(flag('wall', '60'));
const seed = Number(flag('seed', '19'));
const trace = args.includes('--trace');

const durations: DurationDistribution = { kind: 'lognormal', medianMs: 6 * 60_000, sigma: 0.8, maxMs: 60 * 60_000 };
const JOB_COUNTS: [number, number][] = [[1, 0.3], [2, 0.2], [3, 0.2], [4, 0.15], [6, 0.1], [8, 0.05]];

function drawJobs(random: () => number): number {
  let u = random();
  for (const [jobs, p] of JOB_COUNTS) {
    if (u < p) return jobs;
    u -= p;
  }
  return 1;
}

async function scenario(accountCount: number): Promise<void> {
  const random = seededRandom(seed);
  const upstreams = Array.from({ length: 200 }, (_, i) => ({ owner: 'upstream', name: `repo${i}`, jobs: drawJobs(random) }));
  const submissions: CampaignSubmission[] = Array.from({ length: total }, (_, i) => {
    const upstream = upstreams[i % upstreams.length] ?? upstreams[0]!;
    return { id: `c-${i}`, kind: 'candidate', runId: 'campaign', upstream: { owner: upstream.owner, name: upstream.name }, jobs: upstream.jobs };
  });
  // Expected job-time from the same distributions: the time scale that puts the bound near --wall seconds.
  const probe = seededRandom(seed + 1);
  const meanJobMs = Array.from({ length: 20_000 }, () => drawDuration(durations, probe)).reduce((a, b) => a + b, 0) / 20_000;
  const totalJobs = submissions.reduce((sum, s) => sum + s.jobs, 0);
  const capacity = accountCount * limit;
  const timeScale = (wallSeconds * 1000) / ((totalJobs * meanJobMs) / capacity);
  const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
  const prefix = `bench-scale-${randomBytes(4).toString('hex')}`;
  const campaign = await startPoolCampaign({
    redis, prefix,
    accounts: Array.from({ length: accountCount }, (_, i) => toPoolAccount({ owner: `bench-${i + 1}`, concurrentJobs: limit })),
    upstreams, durations, timeScale, random: seededRandom(seed + 2),
    // Time-scaled: a simulated day's REST calls come in minutes; GitHub's 5,000 per wall-clock hour would stall the run.
    simRestPerHour: 10_000_000,
  });
  // Benchmark repositories exist before the campaign starts (`ci-replay repos sync`), as in production.
  await campaign.prepareRepos(upstreams.slice(0, Math.min(upstreams.length, total)));
  const traceRedis = trace ? new Redis(testRedisUrl(), { maxRetriesPerRequest: null }) : null;
  const tracer = traceRedis === null ? null : startCampaignTrace(campaign, traceRedis, prefix);
  const started = Date.now();
  for (const submission of submissions) await campaign.submit(submission);
  // Mid-campaign, an interactive submission (one job) arrives.
  await new Promise((resolve) => setTimeout(resolve, (wallSeconds * 1000) / 2));
  const interactive: CampaignSubmission = { id: 'interactive', kind: 'candidate', runId: null, upstream: { owner: 'upstream', name: 'repo0' }, jobs: upstreams[0]?.jobs ?? 1 };
  await campaign.submit(interactive);
  const ids = [...submissions.map((s) => s.id), interactive.id];
  await campaign.waitAll(ids, Math.max(600_000, wallSeconds * 1000 * 20));
  const wallMs = Date.now() - started;
  await tracer?.stop();
  const jobTimeMs = [...campaign.jobTime.values()].reduce((a, b) => a + b, 0);
  const boundMs = (jobTimeMs / capacity) * timeScale;
  const interactiveTimes = campaign.times.get('interactive');
  const latencyMs = (interactiveTimes?.startedAt ?? 0) - (interactiveTimes?.admittedAt ?? 0);
  const rest = campaign.sim.counters.snapshot();
  const perSubmission = Object.entries(rest)
    .filter(([key]) => !key.includes('access_tokens'))
    .reduce((sum, [, count]) => sum + count, 0) / ids.length;
  const peaks = campaign.accounts.map((a) => {
    const stats = campaign.sim.limits.jobs(a.owner);
    return `${a.owner} peak ${stats.peak}/${a.concurrentJobs} demand ${stats.peakDemand} jobs ${stats.started}`;
  });
  console.log(JSON.stringify({
    accounts: accountCount, runs: total, jobs: totalJobs, limitPerAccount: limit, timeScale: Number(timeScale.toExponential(3)),
    wallSeconds: Number((wallMs / 1000).toFixed(1)), boundSeconds: Number((boundMs / 1000).toFixed(1)), overBound: `${(((wallMs - boundMs) / boundMs) * 100).toFixed(1)}%`,
    simulatedHours: Number((wallMs / timeScale / 3_600_000).toFixed(1)), boundSimulatedHours: Number((jobTimeMs / capacity / 3_600_000).toFixed(1)),
    peaks, restCallsPerSubmission: Number(perSubmission.toFixed(2)), restCalls: rest,
    interactiveStartLatencyMs: latencyMs, interactiveStartLatencySimulatedMin: Number((latencyMs / timeScale / 60_000).toFixed(1)),
    medianJobSimulatedMin: durations.kind === 'lognormal' ? durations.medianMs / 60_000 : null, errors: campaign.errors.length,
    ...(tracer === null ? {} : { trace: tracer.report(timeScale) }),
  }));
  await campaign.close();
  redis.disconnect();
  traceRedis?.disconnect();
}

for (const count of accountCounts) await scenario(count);
