import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PROTECTIONS, getDatasetPolicy, updateDatasetPolicy, type DatasetPolicy } from '../../protection/index.js';
import { invalidInput } from '../../errors.js';
import type { AppDeps } from '../app.js';
import { parseInput } from '../validate.js';

const params = z.object({ name: z.string().min(1).max(100).regex(/^[^\0-\x1f/]+$/, 'must be a dataset name') });
const policyBody = z
  .object({
    protection: z.enum(PROTECTIONS).optional(),
    protectedPaths: z.array(z.string()).max(200).optional(),
  })
  .strict();

/** The dataset policy as the API shows it. */
function policyView(policy: DatasetPolicy) {
  return { dataset: policy.dataset, protection: policy.protection, protectedPaths: policy.protectedPaths, source: policy.source };
}

/** `GET/PUT /v1/datasets/{name}/policy` (operators): the dataset's anti-tampering policy. */
export function datasetRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get(
    '/v1/datasets/:name/policy',
    { config: { auth: 'operator' }, schema: { tags: ['datasets'], summary: "A dataset's protection policy (default `ground-truth` when none is stored)", params: z.toJSONSchema(params) } },
    async (request) => {
      const { name } = parseInput(params, request.params, 'params');
      return policyView(await getDatasetPolicy(deps.repos.datasetPolicies, name));
    },
  );

  app.put(
    '/v1/datasets/:name/policy',
    {
      config: { auth: 'operator' },
      schema: {
        tags: ['datasets'],
        summary: "Set a dataset's protection policy: `protection` (ground-truth | paths | off) and/or `protectedPaths` (globs added to every instance's own); absent fields keep their value",
        params: z.toJSONSchema(params),
        body: z.toJSONSchema(policyBody),
      },
    },
    async (request) => {
      const { name } = parseInput(params, request.params, 'params');
      const body = parseInput(policyBody, request.body ?? undefined, 'body');
      if (body.protection === undefined && body.protectedPaths === undefined) throw invalidInput('invalid_request', 'body: give `protection` and/or `protectedPaths`');
      return policyView(await updateDatasetPolicy(deps.repos.datasetPolicies, name, body));
    },
  );
}
