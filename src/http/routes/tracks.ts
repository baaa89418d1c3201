import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { visibleRun, visibleTrack } from '../../auth/visibility.js';
import { conflict } from '../../errors.js';
import { renderRunTracks, renderTrack, TRACK_FORMATS, type TrackService } from '../../tracks/index.js';
import type { AppDeps, RouteRegistrar } from '../app.js';
import { principalOf } from '../auth.js';
import { parseInput } from '../validate.js';

const createBody = z.object({ instanceId: z.string().min(1).max(200), runId: z.uuid().optional() });
const roundBody = z.object({ patch: z.string().min(1, 'a round needs a patch') });
const idParams = z.object({ id: z.uuid('must be a track id (UUID)') });
const getQuery = z.object({ gamma: z.coerce.number().positive().finite().max(100).default(1), format: z.enum(TRACK_FORMATS).default('json') });
const instanceParams = z.object({ id: z.string().min(1).max(200) });
const formats = 'format: json (default), markdown, csv or table (a terminal table); the tables come from one model, CSV without the notes.';
const testSetBody = z.object({ baseSubmissionId: z.uuid(), oracleSubmissionId: z.uuid() }).optional();

/** SWE-CI multi-round tracks. Built by the composition root with its track service. A track belongs to the token that started it; another token's track or run is 404. */
export function trackRoutes(tracks: TrackService): RouteRegistrar {
  return (app: FastifyInstance, deps: AppDeps) => {
    app.post('/v1/tracks', { schema: { tags: ['tracks'], summary: "Start a SWE-CI track on an instance with an oracle commit (owned by the calling token; a runId the caller does not own is 404)", body: z.toJSONSchema(createBody) } }, async (request, reply) => {
      const body = parseInput(createBody, request.body, 'body');
      const principal = principalOf(request);
      if (body.runId !== undefined) await visibleRun(deps.repos, principal, body.runId);
      return reply.code(201).send(await tracks.create({ ...body, ownerTokenId: principal.tokenId }));
    });

    app.post(
      '/v1/tracks/:id/rounds',
      { schema: { tags: ['tracks'], summary: "Submit the next round: the patch is applied on the previous kept round's code", body: z.toJSONSchema(roundBody) } },
      async (request, reply) => {
        const { id } = parseInput(idParams, request.params, 'params');
        const { patch } = parseInput(roundBody, request.body, 'body');
        await visibleTrack(deps.repos, principalOf(request), id);
        return reply.code(202).send(await tracks.submitRound(id, patch));
      },
    );

    app.get(
      '/v1/tracks/:id',
      { schema: { tags: ['tracks'], summary: 'A track: rounds, passed counts, normalized change, EvoScore (?gamma=, default 1), solved, zero-regression', description: formats, querystring: z.toJSONSchema(getQuery, { io: 'input' }) } },
      async (request, reply) => {
        const { id } = parseInput(idParams, request.params, 'params');
        const { gamma, format } = parseInput(getQuery, request.query, 'query');
        await visibleTrack(deps.repos, principalOf(request), id);
        const view = await tracks.get(id, { gamma });
        if (format === 'json') return view;
        const rendered = renderTrack(view, format);
        return reply.type(rendered.contentType).send(rendered.body);
      },
    );

    app.get(
      '/v1/runs/:id/tracks',
      { schema: { tags: ['tracks'], summary: "SWE-CI summary of a run's tracks: per-task scores and the means (EvoScore for ?gamma=, solved, zero-regression)", description: formats, querystring: z.toJSONSchema(getQuery, { io: 'input' }) } },
      async (request, reply) => {
        const { id } = parseInput(z.object({ id: z.uuid('must be a run id (UUID)') }), request.params, 'params');
        const { gamma, format } = parseInput(getQuery, request.query, 'query');
        await visibleRun(deps.repos, principalOf(request), id);
        const summary = await tracks.runSummary(id, { gamma });
        if (format === 'json') return summary;
        const rendered = renderRunTracks(summary, format);
        return reply.type(rendered.contentType).send(rendered.body);
      },
    );

    app.post(
      '/v1/instances/:id/test-sets',
      { config: { auth: 'operator' }, schema: { tags: ['tracks'], summary: "Establish the instance's base and oracle test sets (default: latest baseline and reference submissions with test results)" } },
      async (request) => {
        const { id } = parseInput(instanceParams, request.params, 'params');
        const body = parseInput(testSetBody, request.body ?? undefined, 'body');
        const set = await tracks.establishTestSets(id, body);
        if (set === null) throw conflict('no_test_runs', `instance ${id} has no completed baseline and reference submissions with test results yet`);
        return { instanceId: set.instanceId, p0: set.p0, pStar: set.pStar, basePassing: set.basePassing, gapTests: set.gapTests, baseSubmissionId: set.baseSubmissionId, oracleSubmissionId: set.oracleSubmissionId };
      },
    );
  };
}
