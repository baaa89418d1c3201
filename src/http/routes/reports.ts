import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Principal } from '../../auth/principal.js';
import { visibleRun } from '../../auth/visibility.js';
import { REPORT_VIEWS, RUN_REPORT_FORMATS, runReport } from '../../reports/index.js';
import type { AppDeps, RouteRegistrar } from '../app.js';
import { principalOf } from '../auth.js';
import { parseInput } from '../validate.js';

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1' || value === '');

const reportQuery = z.object({
  format: z.enum(RUN_REPORT_FORMATS).default('json'),
  by: z.enum(REPORT_VIEWS).default('summary'),
  includeUnhealthy: flag,
  dataset: z.string().min(1).max(200).optional(),
});
const idParams = z.object({ id: z.uuid('must be a run id (UUID)') });
const compareQuery = reportQuery.extend({
  runs: z
    .string()
    .transform((value) => value.split(',').map((id) => id.trim()).filter((id) => id !== ''))
    .pipe(z.array(z.uuid('each run must be a run id (UUID)')).min(1, 'name at least one run').max(20, 'at most 20 runs')),
});

const description =
  'format: json (default), markdown, csv, table or sweep-json (SWE-sweep `sweep info --json`); by: summary (default), type (Table 7), repo (Table 8), instance, observed; includeUnhealthy: score flaky/drifted/unreplayable instances too.';

/** Report routes: one run's report, and several runs side by side with paired comparisons against the first. */
export const reportRoutes: RouteRegistrar = (app: FastifyInstance, deps: AppDeps) => {
  const { reports } = deps.repos;
  /** Every run must be the caller's (operators: any); another token's run is 404, as one that does not exist. */
  const ensureVisible = async (principal: Principal, ids: readonly string[]): Promise<void> => {
    for (const id of ids) await visibleRun(deps.repos, principal, id);
  };
  app.get(
    '/v1/runs/:id/report',
    { schema: { tags: ['reports'], summary: "A run's CI-Repair-Bench report", description, querystring: z.toJSONSchema(reportQuery, { io: 'input' }) } },
    async (request, reply) => {
      const { id } = parseInput(idParams, request.params, 'params');
      const query = parseInput(reportQuery, request.query, 'query');
      await ensureVisible(principalOf(request), [id]);
      const rendered = await runReport({ repos: { reports } }, [id], query);
      return reply.type(rendered.contentType).send(rendered.body);
    },
  );

  app.get(
    '/v1/reports/compare',
    { schema: { tags: ['reports'], summary: 'Several runs side by side (paired comparisons against the first)', description, querystring: z.toJSONSchema(compareQuery, { io: 'input' }) } },
    async (request, reply) => {
      const query = parseInput(compareQuery, request.query, 'query');
      const { runs, ...options } = query;
      await ensureVisible(principalOf(request), runs);
      const rendered = await runReport({ repos: { reports } }, runs, options);
      return reply.type(rendered.contentType).send(rendered.body);
    },
  );
};
