import type { FastifyInstance } from 'fastify';
import type { PipelinePool } from '../../scheduler/index.js';
import type { RouteRegistrar } from '../app.js';

/**
 * The account pool (docs/account-pool.md): `GET /v1/pool` (operators) shows each account's jobs running, queued,
 * limit and throughput; a queued submission's resource (`GET /v1/submissions/:id`) gains `queuePosition` and
 * `expectedStart` while it waits for room on its account.
 */
export function poolRoutes(pool: PipelinePool): RouteRegistrar {
  return (app: FastifyInstance) => {
    app.get(
      '/v1/pool',
      { config: { auth: 'operator' }, schema: { tags: ['pool'], summary: 'The benchmark accounts of the pool: per account jobs running, queued per class, concurrent-job limit, state and throughput (finished in the last hour); empty when no pool is configured (BENCH_OWNER alone)' } },
      async () => {
        const accounts = await pool.scheduler.pool();
        return {
          accounts: accounts.map((account) => ({
            owner: account.owner,
            state: account.state,
            concurrentJobs: account.concurrentJobs,
            jobsRunning: account.jobsRunning,
            submissionsRunning: account.submissionsRunning,
            queued: account.queued,
            finishedLastHour: account.finishedLastHour,
            restPerHour: account.restPerHour,
            writesPerMinute: account.writesPerMinute,
            runnerLabels: account.runnerLabels,
          })),
        };
      },
    );

    // The submission resource shows where a waiting submission stands (only while queued and only with a pool).
    app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
      if (request.method !== 'GET' || request.routeOptions.url !== '/v1/submissions/:id') return payload;
      if (typeof payload !== 'object' || payload === null || !('id' in payload) || !('state' in payload) || payload.state !== 'queued' || typeof payload.id !== 'string') return payload;
      const placement = await pool.scheduler.placement(payload.id).catch(() => ({ state: 'unknown' }) as const);
      if (placement.state !== 'waiting') return payload;
      return { ...payload, account: placement.account, queuePosition: placement.position, jobsAhead: placement.jobsAhead, expectedStart: placement.expectedStartAt.toISOString() };
    });
  };
}
