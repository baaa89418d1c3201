import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ownerScope } from '../../auth/principal.js';
import { visibleRun } from '../../auth/visibility.js';
import type { HealthChange, Repositories } from '../../db/index.js';
import { INSTANCE_HEALTH } from '../../domain/states.js';
import { principalOf } from '../auth.js';
import { parseInput } from '../validate.js';

const listQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
const idParams = z.object({ id: z.uuid('must be a run id (UUID)') });
const rowsQuery = z.object({
  repo: z.string().min(1).max(200).optional(),
  type: z.string().min(1).max(100).optional(),
  outcome: z.string().min(1).max(50).optional(),
});
const healthQuery = z.object({ recent: z.coerce.number().int().min(1).max(200).default(30) });

/** What a re-validation's details may show: its counts and backend (never the replays' submission ids: operators only). */
const changeView = (change: HealthChange) => {
  const details = typeof change.details === 'object' && change.details !== null ? (change.details as Record<string, unknown>) : {};
  return {
    id: change.id,
    instanceId: change.instanceId,
    repo: change.repo,
    status: change.status,
    result: change.result,
    health: change.health,
    counts: details.counts ?? null,
    backend: typeof details.backend === 'string' ? details.backend : null,
    startedAt: change.startedAt,
    completedAt: change.completedAt,
  };
};

/**
 * JSON the dashboard reads beyond the existing API, with the same auth rules: runs listed by owner in the query
 * (a submitter sees only its own), a run's rows only when the run is visible (404 otherwise), and instance
 * health (already readable by every token through /v1/instances) without the re-validation replays' ids.
 */
export function dashboardDataRoutes(app: FastifyInstance, repos: Pick<Repositories, 'runs' | 'dashboard'>): void {
  app.get('/v1/runs', { schema: { tags: ['runs'], summary: 'Runs, newest first, with submission counts by state (a submitter: only its own)', querystring: z.toJSONSchema(listQuery, { io: 'input' }) } }, async (request) => {
    const { limit } = parseInput(listQuery, request.query, 'query');
    const owner = ownerScope(principalOf(request));
    const runs = await repos.dashboard.runs({ limit, ...(owner !== undefined ? { ownerTokenId: owner } : {}) });
    return {
      items: runs.map((run) => ({
        id: run.id,
        label: run.label,
        createdAt: run.createdAt,
        submissions: { total: Object.values(run.byState).reduce((sum, count) => sum + count, 0), byState: run.byState },
      })),
    };
  });

  app.get(
    '/v1/runs/:id/instances',
    { schema: { tags: ['runs'], summary: "A run's candidate submissions with their instance's repository and labels; filters repo, type (instance or observed label), outcome (another token's run is 404)", querystring: z.toJSONSchema(rowsQuery, { io: 'input' }) } },
    async (request) => {
      const { id } = parseInput(idParams, request.params, 'params');
      const filter = parseInput(rowsQuery, request.query, 'query');
      const run = await visibleRun(repos, principalOf(request), id);
      const rows = (await repos.dashboard.runRows(id)).filter(
        (row) =>
          (filter.repo === undefined || row.repo === filter.repo) &&
          (filter.type === undefined || row.labels.includes(filter.type) || row.observedLabels.includes(filter.type)) &&
          (filter.outcome === undefined || (row.outcome ?? 'pending') === filter.outcome),
      );
      return { run: { id: run.id, label: run.label, createdAt: run.createdAt }, items: rows };
    },
  );

  app.get('/v1/dashboard/health', { schema: { tags: ['instances'], summary: 'Benchmark health: instances by status, per repository (flakiness), and the latest re-validations', querystring: z.toJSONSchema(healthQuery, { io: 'input' }) } }, async (request) => {
    const { recent } = parseInput(healthQuery, request.query, 'query');
    const [counts, changes] = await Promise.all([repos.dashboard.healthCounts(), repos.dashboard.recentRevalidations(recent)]);
    const statuses: Record<string, number> = Object.fromEntries(INSTANCE_HEALTH.map((health) => [health, 0]));
    const byRepo = new Map<string, Record<string, number>>();
    for (const count of counts) {
      statuses[count.health] = (statuses[count.health] ?? 0) + count.instances;
      const row = byRepo.get(count.repo) ?? Object.fromEntries(INSTANCE_HEALTH.map((health) => [health, 0]));
      row[count.health] = (row[count.health] ?? 0) + count.instances;
      byRepo.set(count.repo, row);
    }
    return {
      statuses,
      repositories: [...byRepo.entries()].map(([repo, health]) => {
        const total = Object.values(health).reduce((sum, n) => sum + n, 0);
        const checked = total - (health.unknown ?? 0);
        return { repo, total, checked, health, flakyRate: checked === 0 ? null : (health.flaky ?? 0) / checked };
      }),
      recent: changes.map(changeView),
    };
  });
}
