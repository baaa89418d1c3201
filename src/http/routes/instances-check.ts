import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { invalidInput } from '../../errors.js';
import { CHECK_BACKENDS, checkInstances, selectInstances, summarizeChecks, type CheckSelection, type InstanceCheckDeps } from '../../instances-check/index.js';
import { createWorkflowLinter, type WorkflowLinter } from '../../workflows/index.js';
import type { RouteRegistrar } from '../app.js';
import { parseInput } from '../validate.js';

/** Instances one request checks at most (a check fetches commits and builds two commits per instance). */
export const MAX_CHECKED_PER_REQUEST = 200;

const checkBody = z
  .object({
    all: z.literal(true).optional(),
    repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'must be owner/name').optional(),
    instanceIds: z.array(z.string().min(1).max(200)).min(1).max(MAX_CHECKED_PER_REQUEST).optional(),
    backend: z.enum(CHECK_BACKENDS).optional(),
  })
  .strict();

/** `POST /v1/instances/check` (operator): the instance check of docs/datasets.md, answered when done. Built by the composition root. */
export function instanceCheckRoutes(deps: Omit<InstanceCheckDeps, 'linter'>): RouteRegistrar {
  let linter: Promise<WorkflowLinter> | undefined;
  return (app: FastifyInstance) => {
    app.post(
      '/v1/instances/check',
      {
        config: { auth: 'operator' },
        schema: {
          tags: ['instances'],
          summary: "Check instances (exactly one of `all: true`, `repo: \"owner/name\"`, `instanceIds: [...]`; `backend` local|github): commits reachable and from where, ground truth applies at sha_fail, workflow standardizes, the backend's preflight; nothing pushed or run",
          description: `At most ${MAX_CHECKED_PER_REQUEST} instances per request (more is 422 \`too_many_instances\`: check by repository or by ids). The answer is \`{ summary, results }\` as \`ci-replay instances check --json\` prints it.`,
          body: z.toJSONSchema(checkBody),
        },
      },
      async (request) => {
        const body = parseInput(checkBody, request.body ?? {}, 'body');
        const given = [body.all === true, body.repo !== undefined, body.instanceIds !== undefined].filter(Boolean).length;
        if (given !== 1) throw invalidInput('invalid_request', 'body: give exactly one of all: true, repo, instanceIds');
        const selection: CheckSelection = body.all === true ? { all: true } : body.repo !== undefined ? { repo: body.repo } : { instanceIds: body.instanceIds ?? [] };
        const instances = await selectInstances(deps.repos.instances, selection);
        if (instances.length > MAX_CHECKED_PER_REQUEST) {
          throw invalidInput('too_many_instances', `${instances.length} instances selected; one request checks at most ${MAX_CHECKED_PER_REQUEST}: check by repository or by ids`, { selected: instances.length }, 422);
        }
        linter ??= createWorkflowLinter();
        const results = await checkInstances({ ...deps, linter: await linter }, instances, body.backend === undefined ? {} : { backend: body.backend });
        return { summary: summarizeChecks(results), results };
      },
    );
  };
}
