import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '../../errors.js';
import { healthSummary, setLifecycleByHand, transitionView } from '../../health/index.js';
import type { AppDeps } from '../app.js';
import { principalOf } from '../auth.js';
import { parseInput } from '../validate.js';

const idParams = z.object({ id: z.string().min(1).max(200) });
const reasonBody = z.object({ reason: z.string().max(500) }).strict();

/** Benchmark health: the summary, the lifecycle history of an instance, and the operators' quarantine / restore. */
export function instanceHealthRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/v1/health/instances', { schema: { tags: ['health'], summary: 'Benchmark health: counts by verdict and lifecycle, changes since the last cycle, flakiness per repository, the oldest check' } }, async () =>
    healthSummary(deps.repos, { cycleHours: deps.config.revalidation?.intervalHours ?? 0 }),
  );

  app.get('/v1/instances/:id/lifecycle', { schema: { tags: ['instances'], summary: 'Lifecycle of an instance (active, suspect, quarantined) and its transitions, newest first' } }, async (request) => {
    const { id } = parseInput(idParams, request.params, 'params');
    const state = await deps.repos.instanceHealth.get(id);
    if (state === null) throw notFound('instance', id);
    const history = await deps.repos.instanceHealth.history(id, 100);
    return { instanceId: id, lifecycle: state.lifecycle, reason: state.lifecycleReason, health: state.health, healthCheckedAt: state.healthCheckedAt, transitions: history.map(transitionView) };
  });

  for (const action of ['quarantine', 'restore'] as const) {
    app.post(
      `/v1/instances/:id/${action}`,
      {
        config: { auth: 'operator' },
        schema: {
          tags: ['instances'],
          summary: action === 'quarantine' ? 'Quarantine an instance by hand, with a reason (only a restore lifts it)' : 'Restore an instance to active by hand, with a reason',
        },
      },
      async (request) => {
        const { id } = parseInput(idParams, request.params, 'params');
        const { reason } = parseInput(reasonBody, request.body ?? {}, 'body');
        return setLifecycleByHand(deps.repos, id, action, { reason, actor: `operator:${principalOf(request).name}` });
      },
    );
  }
}
