import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { NewDelivery } from '../../db/index.js';
import { createDeliveryRecorder, type DeliveryRecorderOptions } from '../delivery-recorder.js';
import { verifyWebhookSignature } from '../../github/index.js';
import type { Queues } from '../../queue/index.js';
import type { AppDeps, RouteRegistrar } from '../app.js';
import { errorBody } from '../error-handler.js';
import { storableText, textProblem } from '../../util/input-hygiene.js';

/** The intake's group-commit limits (see createDeliveryRecorder) are passed through. */
export interface GithubWebhookRouteOptions extends Pick<DeliveryRecorderOptions, 'maxBatch' | 'maxInFlight'> {
  webhookSecret: string;
  queues: Pick<Queues, 'addBulk'>;
  logger: Logger;
  /** Largest accepted body (GitHub sends at most 25 MB). */
  bodyLimitBytes?: number;
}

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
/** Longest text column value taken from a payload (GitHub's names are far shorter). */
const MAX_TEXT = 1024;
/** A payload string fit for a TEXT column: NUL removed, lone surrogates replaced, bounded (the payload itself is kept as bytes). */
const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? storableText(value).slice(0, MAX_TEXT) : null);
const MAX_BIGINT = 9_223_372_036_854_775_807n;
/** A GitHub id as Postgres BIGINT, or null when it is not a non-negative integer in range. */
const bigintOrNull = (value: unknown): bigint | null => {
  const parsed = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : typeof value === 'string' && /^\d{1,19}$/.test(value) ? BigInt(value) : null;
  return parsed !== null && parsed <= MAX_BIGINT ? parsed : null;
};

/**
 * `POST /api/github/webhooks`: verifies X-Hub-Signature-256 over the raw body (an encapsulated JSON parser
 * keeps the bytes as received), records the delivery once per GUID, enqueues it on `events` and answers 202.
 * Everything else happens in workers. Invalid or missing signature: 401 and nothing stored. When Redis is down
 * the delivery stays recorded and the recovery sweep enqueues it later.
 */
export function githubWebhookRoutes(options: GithubWebhookRouteOptions): RouteRegistrar {
  return async (app: FastifyInstance, deps: AppDeps) => {
    const record = createDeliveryRecorder({
      insert: (deliveries) => deps.repos.deliveries.recordMany(deliveries),
      queues: options.queues,
      logger: options.logger,
      maxBatch: options.maxBatch,
      maxInFlight: options.maxInFlight,
    });
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.bodyLimitBytes ?? 26 * 1024 * 1024 }, (_request, body, done) => done(null, body));
      // Every delivery is recorded in Postgres; per-request access logs would only repeat that (warnings still log).
      scope.post('/api/github/webhooks', { config: { auth: 'public' }, schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!verifyWebhookSignature(options.webhookSecret, raw, header(request.headers['x-hub-signature-256']))) {
          request.log.warn({ guid: header(request.headers['x-github-delivery']) ?? null }, 'webhook delivery with an invalid signature refused');
          return reply.code(401).send(errorBody('invalid_signature', 'X-Hub-Signature-256 is missing or does not match the body'));
        }
        const event = header(request.headers['x-github-event']);
        const guid = header(request.headers['x-github-delivery']);
        if (event === undefined || guid === undefined || guid.length === 0 || guid.length > 200 || textProblem(guid) !== null) {
          return reply.code(400).send(errorBody('invalid_delivery', 'X-GitHub-Event and X-GitHub-Delivery are required'));
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw.toString('utf8'));
        } catch {
          return reply.code(400).send(errorBody('invalid_json', 'the body is not JSON'));
        }
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return reply.code(400).send(errorBody('invalid_json', 'the body is not a JSON object'));
        const payload = parsed as Record<string, unknown>;
        const delivery: NewDelivery = {
          id: guid,
          event: storableText(event).slice(0, MAX_TEXT),
          action: stringOrNull(payload.action),
          hookId: bigintOrNull(header(request.headers['x-github-hook-id'])),
          installationId: bigintOrNull((payload.installation as { id?: unknown } | undefined)?.id),
          repoFullName: stringOrNull((payload.repository as { full_name?: unknown } | undefined)?.full_name),
          // Stored as received: the signed bytes, not a re-serialization.
          payload: raw,
        };
        const created = await record(delivery);
        return reply.code(202).send({ received: true, duplicate: !created });
      });
    });
  };
}
