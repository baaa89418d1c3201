import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { NewDelivery } from '../../db/index.js';
import { verifyWebhookSignature } from '../../github/index.js';
import { jobId, type Queues } from '../../queue/index.js';
import type { AppDeps, RouteRegistrar } from '../app.js';
import { errorBody } from '../error-handler.js';

export interface GithubWebhookRouteOptions {
  webhookSecret: string;
  queues: Pick<Queues, 'addBulk'>;
  logger: Logger;
  /** Largest accepted body (GitHub sends at most 25 MB). */
  bodyLimitBytes?: number;
  /**
   * Records many deliveries in one statement and returns the GUIDs actually inserted (ON CONFLICT DO NOTHING
   * RETURNING id). Without it each delivery is recorded with `deliveries.record`; enqueueing is batched either way.
   */
  recordMany?: (deliveries: NewDelivery[]) => Promise<Set<string>>;
  /** Most deliveries written per batch (default 200). */
  maxBatch?: number;
}

interface Pending {
  delivery: NewDelivery;
  resolve(created: boolean): void;
  reject(error: unknown): void;
}

/**
 * Coalesces the deliveries that arrive within one event-loop turn: one insert (or one per delivery without
 * `recordMany`) and one `addBulk` per batch. Every request still waits until its own delivery is stored.
 */
function createRecorder(options: GithubWebhookRouteOptions, record: (delivery: NewDelivery) => Promise<boolean>): (delivery: NewDelivery) => Promise<boolean> {
  const maxBatch = options.maxBatch ?? 200;
  let pending: Pending[] = [];
  let scheduled = false;
  const insert = async (deliveries: NewDelivery[]): Promise<Set<string>> => {
    if (options.recordMany !== undefined) return options.recordMany(deliveries);
    const created = await Promise.all(deliveries.map(async (delivery) => ((await record(delivery)) ? delivery.id : null)));
    return new Set(created.filter((id): id is string => id !== null));
  };
  const flush = async (batch: Pending[]): Promise<void> => {
    const unique = new Map<string, NewDelivery>();
    for (const item of batch) if (!unique.has(item.delivery.id)) unique.set(item.delivery.id, item.delivery);
    let created: Set<string>;
    try {
      created = await insert([...unique.values()]);
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    const ids = [...created];
    // One events job per batch (ids only): Redis work stays constant per batch, not per delivery. Processing is
    // idempotent per delivery, and a delivery is enqueued only by the request that recorded it first.
    const enqueue =
      ids.length === 0
        ? Promise.resolve()
        : ids.length === 1
          ? options.queues.addBulk('events', [{ payload: { source: 'delivery' as const, deliveryId: ids[0]! }, options: { jobId: jobId('delivery', ids[0]!) } }])
          : options.queues.addBulk('events', [{ payload: { source: 'deliveries' as const, deliveryIds: ids }, options: { jobId: jobId('deliveries', ids[0]!, ids.length) } }]);
    await enqueue.catch((error: unknown) => {
      options.logger.warn({ err: error, count: ids.length }, 'deliveries recorded but not enqueued; the recovery sweep will enqueue them');
    });
    const answered = new Set<string>();
    for (const item of batch) {
      const first = created.has(item.delivery.id) && !answered.has(item.delivery.id);
      answered.add(item.delivery.id);
      item.resolve(first);
    }
  };
  const drain = (): void => {
    scheduled = false;
    while (pending.length > 0) {
      const batch = pending.slice(0, maxBatch);
      pending = pending.slice(maxBatch);
      void flush(batch);
    }
  };
  return (delivery) =>
    new Promise<boolean>((resolve, reject) => {
      pending.push({ delivery, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    });
}

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);
const bigintOrNull = (value: unknown): bigint | null => (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)) ? BigInt(value) : null);

/**
 * `POST /api/github/webhooks`: verifies X-Hub-Signature-256 over the raw body (an encapsulated JSON parser
 * keeps the bytes as received), records the delivery once per GUID, enqueues it on `events` and answers 202.
 * Everything else happens in workers. Invalid or missing signature: 401 and nothing stored. When Redis is down
 * the delivery stays recorded and the recovery sweep enqueues it later.
 */
export function githubWebhookRoutes(options: GithubWebhookRouteOptions): RouteRegistrar {
  return async (app: FastifyInstance, deps: AppDeps) => {
    const record = createRecorder(options, (delivery) => deps.repos.deliveries.record(delivery));
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: options.bodyLimitBytes ?? 26 * 1024 * 1024 }, (_request, body, done) => done(null, body));
      scope.post('/api/github/webhooks', { config: { auth: 'public' }, schema: { hide: true } }, async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        if (!verifyWebhookSignature(options.webhookSecret, raw, header(request.headers['x-hub-signature-256']))) {
          return reply.code(401).send(errorBody('invalid_signature', 'X-Hub-Signature-256 is missing or does not match the body'));
        }
        const event = header(request.headers['x-github-event']);
        const guid = header(request.headers['x-github-delivery']);
        if (event === undefined || guid === undefined || guid.length === 0 || guid.length > 200) {
          return reply.code(400).send(errorBody('invalid_delivery', 'X-GitHub-Event and X-GitHub-Delivery are required'));
        }
        let payload: Record<string, unknown>;
        try {
          payload = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        } catch {
          return reply.code(400).send(errorBody('invalid_json', 'the body is not JSON'));
        }
        const delivery: NewDelivery = {
          id: guid,
          event,
          action: typeof payload.action === 'string' ? payload.action : null,
          hookId: bigintOrNull(header(request.headers['x-github-hook-id'])),
          installationId: bigintOrNull((payload.installation as { id?: unknown } | undefined)?.id),
          repoFullName: (payload.repository as { full_name?: string } | undefined)?.full_name ?? null,
          payload,
        };
        const created = await record(delivery);
        return reply.code(202).send({ received: true, duplicate: !created });
      });
    });
  };
}
