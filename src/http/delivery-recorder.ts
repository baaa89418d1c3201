import type { Logger } from 'pino';
import type { NewDelivery } from '../db/index.js';
import { jobId, type Queues } from '../queue/index.js';

export interface DeliveryRecorderOptions {
  /** Inserts deliveries (ON CONFLICT DO NOTHING) and returns the GUIDs that were new. */
  insert(deliveries: NewDelivery[]): Promise<Set<string>>;
  queues: Pick<Queues, 'addBulk'>;
  logger: Logger;
  /** Most deliveries written per statement (default 200). */
  maxBatch?: number;
  /** Most statements in flight at once (default 2); deliveries arriving meanwhile wait for the next one. */
  maxInFlight?: number;
}

interface Pending {
  delivery: NewDelivery;
  resolve(created: boolean): void;
  reject(error: unknown): void;
}

/**
 * Group commit for the webhook intake. Deliveries are queued in memory; at most `maxInFlight` batches are being
 * written at a time, and everything that arrives while they are written goes into the next batch: one insert and
 * one events job per batch, and batches grow with the load instead of with a timer (no added latency when idle).
 * The returned function resolves once the caller's own delivery is committed (true when this call recorded it
 * first) and rejects when the insert failed. A batch that was recorded but could not be enqueued is left to the
 * recovery sweep.
 */
export function createDeliveryRecorder(options: DeliveryRecorderOptions): (delivery: NewDelivery) => Promise<boolean> {
  const maxBatch = options.maxBatch ?? 200;
  const maxInFlight = options.maxInFlight ?? 2;
  let pending: Pending[] = [];
  let inFlight = 0;
  let scheduled = false;

  const enqueue = async (ids: string[]): Promise<void> => {
    if (ids.length === 0) return;
    // One events job per batch (ids only): Redis work stays constant per batch, not per delivery. Processing is
    // idempotent per delivery, and a delivery is enqueued only by the request that recorded it first.
    const job =
      ids.length === 1
        ? { payload: { source: 'delivery' as const, deliveryId: ids[0]! }, options: { jobId: jobId('delivery', ids[0]!) } }
        : { payload: { source: 'deliveries' as const, deliveryIds: ids }, options: { jobId: jobId('deliveries', ids[0]!, ids.length) } };
    await options.queues.addBulk('events', [job]).catch((error: unknown) => {
      options.logger.warn({ err: error, count: ids.length }, 'deliveries recorded but not enqueued; the recovery sweep will enqueue them');
    });
  };

  const flush = async (batch: Pending[]): Promise<void> => {
    const unique = new Map<string, NewDelivery>();
    for (const item of batch) if (!unique.has(item.delivery.id)) unique.set(item.delivery.id, item.delivery);
    let created: Set<string>;
    try {
      created = await options.insert([...unique.values()]);
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    await enqueue([...created]);
    const answered = new Set<string>();
    for (const item of batch) {
      item.resolve(created.has(item.delivery.id) && !answered.has(item.delivery.id));
      answered.add(item.delivery.id);
    }
  };

  const drain = (): void => {
    scheduled = false;
    while (pending.length > 0 && inFlight < maxInFlight) {
      const batch = pending.length <= maxBatch ? pending : pending.slice(0, maxBatch);
      pending = pending.length <= maxBatch ? [] : pending.slice(maxBatch);
      inFlight += 1;
      void flush(batch).finally(() => {
        inFlight -= 1;
        drain();
      });
    }
  };

  return (delivery) =>
    new Promise<boolean>((resolve, reject) => {
      pending.push({ delivery, resolve, reject });
      if (!scheduled && inFlight < maxInFlight) {
        scheduled = true;
        setImmediate(drain);
      }
    });
}
