import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { visibleSubmission } from '../../auth/visibility.js';
import { submitSweepSubtasks, type SweepDeps } from '../../sweep/index.js';
import type { RouteRegistrar } from '../app.js';
import { principalOf } from '../auth.js';
import { parseInput } from '../validate.js';

const idParams = z.object({ id: z.uuid('must be a submission id (UUID)') });

/** SWE-sweep: evaluate a candidate's subtasks (one run per hidden test patch). Built by the composition root. */
export function sweepRoutes(deps: SweepDeps): RouteRegistrar {
  return (app: FastifyInstance) => {
    app.post(
      '/v1/submissions/:id/subtasks',
      { schema: { tags: ['sweep'], summary: "Start the SWE-sweep subtask runs of a candidate submission (candidate patch + each subtask's test patch); they belong to the candidate's owner. Another token's submission is 404" } },
      async (request, reply) => {
        const { id } = parseInput(idParams, request.params, 'params');
        await visibleSubmission(deps.repos, principalOf(request), id);
        const runs = await submitSweepSubtasks(deps, id);
        return reply.code(202).send({ submissionId: id, subtasks: runs });
      },
    );
  };
}
