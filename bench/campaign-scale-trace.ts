/**
 * Where an account's capacity goes during bench/campaign-scale.ts (`--trace`): per account, the slots over time,
 * split into running (a job holds a runner at the simulator), reserved but not running (the scheduler holds the slot:
 * publish and dispatch-to-start, or a finished job whose completion has not reached the scheduler yet) and free
 * (the scheduler holds nothing: nothing that waits fits, or nothing waits). Each is time-weighted, in slot-seconds
 * and as a share of capacity × wall time, separately while work waits for the account and after (the tail).
 *
 * Running comes from the simulator's own job gate (exact, event by event); reserved and waiting are sampled from the
 * scheduler's Redis keys every `sampleMs`.
 */
import type { Redis } from 'ioredis';
import type { PoolCampaign } from '../test/support/pool-campaign.js';

interface Totals {
  wallMs: number;
  running: number;
  reservedIdle: number;
  free: number;
}

interface AccountTrace {
  owner: string;
  limit: number;
  running: number;
  busy: Totals;
  tail: Totals;
  /** Wall time at which nothing waited for the account any more (first sample with an empty queue after work). */
  queueEmptyAt: number | null;
  lastJobEndAt: number;
  jobs: number;
  /** Jobs ended at the simulator, and job completions the scheduler has processed: the difference is release lag. */
  ended: number;
  releasedByWebhook: number;
  releaseLag: number;
}

export interface CampaignTrace {
  stop(): Promise<void>;
  report(timeScale: number): Record<string, unknown>[];
}

const zero = (): Totals => ({ wallMs: 0, running: 0, reservedIdle: 0, free: 0 });

export function startCampaignTrace(campaign: PoolCampaign, redis: Redis, prefix: string, sampleMs = 20): CampaignTrace {
  const traces = new Map<string, AccountTrace>();
  for (const account of campaign.accounts) {
    traces.set(account.owner.toLowerCase(), {
      owner: account.owner, limit: account.concurrentJobs, running: 0, busy: zero(), tail: zero(), queueEmptyAt: null, lastJobEndAt: 0, jobs: 0, ended: 0, releasedByWebhook: 0, releaseLag: 0,
    });
  }
  const limits = campaign.sim.limits;
  const acquire = limits.acquireJob.bind(limits);
  limits.acquireJob = async (account, signal) => {
    const release = await acquire(account, signal);
    const trace = traces.get(account.toLowerCase());
    if (trace !== undefined) {
      trace.running += 1;
      trace.jobs += 1;
    }
    let done = false;
    return () => {
      if (!done && trace !== undefined) {
        done = true;
        trace.running -= 1;
        trace.ended += 1;
        trace.lastJobEndAt = Date.now();
      }
      release();
    };
  };

  // REST latency per route as the campaign sees it (queueing in the client's per-installation write limiter included).
  const routes = new Map<string, number[]>();
  const time = (app: PoolCampaign['github']): void => {
    const installation = app.installation.bind(app);
    app.installation = (id) => {
      const client = installation(id);
      const request = client.request.bind(client);
      const timed = async (route: string, params?: Record<string, unknown>): Promise<never> => {
        const t0 = Date.now();
        try {
          return (await request(route, params)) as never;
        } finally {
          const list = routes.get(route) ?? [];
          list.push(Date.now() - t0);
          routes.set(route, list);
        }
      };
      return Object.assign(Object.create(client) as typeof client, { request: timed });
    };
  };
  time(campaign.github);
  for (const app of campaign.dispatchers) time(app);
  const jobCompleted = campaign.scheduler.jobCompleted.bind(campaign.scheduler);
  campaign.scheduler.jobCompleted = async (submissionId, jobId) => {
    await jobCompleted(submissionId, jobId);
    const owner = campaign.times.get(submissionId)?.account;
    const trace = owner === undefined ? undefined : traces.get(owner.toLowerCase());
    if (trace !== undefined) trace.releasedByWebhook += 1;
  };

  const base = (owner: string): string => `${prefix}:sched:a:{${owner.toLowerCase()}}`;
  let last = Date.now();
  let stopped = false;
  const sample = async (): Promise<void> => {
    const now = Date.now();
    const dt = now - last;
    last = now;
    for (const trace of traces.values()) {
      const [used, waiting] = await Promise.all([redis.get(`${base(trace.owner)}:used`), redis.hget(`${base(trace.owner)}:stats`, 'waitingJobs')]);
      const reserved = Number(used ?? 0);
      const queued = Number(waiting ?? 0);
      if (queued === 0 && reserved > 0 && trace.queueEmptyAt === null) trace.queueEmptyAt = now;
      if (queued > 0) trace.queueEmptyAt = null;
      const bucket = trace.queueEmptyAt === null ? trace.busy : trace.tail;
      bucket.wallMs += dt;
      bucket.running += trace.running * dt;
      bucket.reservedIdle += Math.max(0, reserved - trace.running) * dt;
      bucket.free += Math.max(0, trace.limit - Math.max(reserved, trace.running)) * dt;
      trace.releaseLag += Math.max(0, trace.ended - trace.releasedByWebhook) * dt;
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, sampleMs));
    }
  })();

  const share = (value: number, totals: Totals, limit: number): string => (totals.wallMs === 0 ? '-' : `${((value / (totals.wallMs * limit)) * 100).toFixed(1)}%`);
  return {
    async stop() {
      stopped = true;
      await loop;
      limits.acquireJob = acquire;
    },
    report(timeScale) {
      const simMin = (ms: number): number => Number((ms / timeScale / 60_000).toFixed(1));
      const latency = Object.fromEntries([...routes].map(([route, list]) => {
        const sorted = [...list].sort((a, b) => a - b);
        const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
        return [route.replace('/repos/{owner}/{repo}', ''), { n: list.length, meanMs: Math.round(list.reduce((a, b) => a + b, 0) / list.length), p90Ms: at(0.9), maxMs: at(1) }];
      }));
      return [{ restLatency: latency }, ...[...traces.values()].map((trace) => {
        const all: Totals = {
          wallMs: trace.busy.wallMs + trace.tail.wallMs, running: trace.busy.running + trace.tail.running,
          reservedIdle: trace.busy.reservedIdle + trace.tail.reservedIdle, free: trace.busy.free + trace.tail.free,
        };
        const part = (totals: Totals): Record<string, unknown> => ({
          simulatedMin: simMin(totals.wallMs), utilisation: share(totals.running, totals, trace.limit),
          reservedNotRunning: share(totals.reservedIdle, totals, trace.limit), free: share(totals.free, totals, trace.limit),
          // Idle slot-time in simulated slot-minutes: what a perfect scheduler would not have lost.
          idleSlotSimMin: simMin(totals.reservedIdle + totals.free),
        });
        return {
          account: trace.owner, jobs: trace.jobs, whole: part(all), whileWaiting: part(trace.busy), tail: part(trace.tail),
          reservedIdlePerJobSimMin: trace.jobs === 0 ? null : Number((simMin(all.reservedIdle) / trace.jobs).toFixed(3)),
          // Of it, a job ended at the simulator whose completion had not reached the scheduler yet (webhook + release).
          releaseLagPerJobSimMin: trace.jobs === 0 ? null : Number((simMin(trace.releaseLag) / trace.jobs).toFixed(3)),
          notReleasedByWebhook: trace.ended - trace.releasedByWebhook,
        };
      })];
    },
  };
}
