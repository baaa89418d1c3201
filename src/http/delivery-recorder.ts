import type { Logger } from 'pino';
import type { NewDelivery } from '../db/index.js';
import { isRetryable, transient } from '../errors.js';
import { jobId, type Queues } from '../queue/index.js';

export interface DeliveryRecorderOptions {
  /** Inserts deliveries (ON CONFLICT DO NOTHING) and returns the GUIDs that were new. */
  insert(deliveries: NewDelivery[]): Promise<Set<string>>;
  queues: Pick<Queues, 'addBulk'>;
  logger: Logger;
  /** Most deliveries written per statement (default 200, at most 1000: one events job carries ≤ 1000 ids). */
  maxBatch?: number | undefined;
  /** Most payload bytes written per statement (default 32 MiB; a single larger delivery goes alone). */
  maxBatchBytes?: number | undefined;
  /** Most statements in flight at once (default 2); deliveries arriving meanwhile wait for the next one. */
  maxInFlight?: number | undefined;
  /** Most deliveries waiting for a statement (default 10,000); beyond it a delivery is refused as transient (503). */
  maxPending?: number | undefined;
}

interface Pending {
  delivery: NewDelivery;
  resolve(created: boolean): void;
  reject(error: unknown): void;
}

function positiveInteger(name: string, value: number | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < 1 || chosen > max) throw new RangeError(`${name} must be an integer from 1 to ${max}, got ${String(value)}`);
  return chosen;
}

const sizeOf = (delivery: NewDelivery): number => (typeof delivery.payload === 'string' ? Buffer.byteLength(delivery.payload) : delivery.payload.length);

/**
 * Group commit for the webhook intake. Deliveries are queued in memory; at most `maxInFlight` batches are being
 * inserted at a time, and everything that arrives meanwhile goes into the next batch: one insert and one events
 * job per batch, and batches grow with the load instead of with a timer (no added latency when idle). A batch
 * gives its slot back as soon as its insert commits, so a slow Redis never holds up the inserts.
 * The returned function resolves once the caller's own delivery is committed and enqueued (true when this call
 * recorded it first), and rejects when the insert failed. A batch refused for any reason but a passing fault is
 * written again one delivery at a time, so a delivery that cannot be stored fails alone and its neighbours are
 * recorded. A batch recorded but not enqueued is left to the recovery sweep.
 */
export function createDeliveryRecorder(options: DeliveryRecorderOptions): (delivery: NewDelivery) => Promise<boolean> {
  const maxBatch = positiveInteger('maxBatch', options.maxBatch, 200, 1000);
  const maxBatchBytes = positiveInteger('maxBatchBytes', options.maxBatchBytes, 32 * 1024 * 1024);
  const maxInFlight = positiveInteger('maxInFlight', options.maxInFlight, 2);
  const maxPending = positiveInteger('maxPending', options.maxPending, 10_000);
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
    try {
      await options.queues.addBulk('events', [job]);
    } catch (error) {
      options.logger.warn({ err: error, count: ids.length }, 'deliveries recorded but not enqueued; the recovery sweep will enqueue them');
    }
  };

  /** Inserts one batch, gives the slot back, then enqueues and answers its callers. Never rejects. */
  const flush = async (batch: Pending[]): Promise<void> => {
    const unique = new Map<string, NewDelivery>();
    for (const item of batch) if (!unique.has(item.delivery.id)) unique.set(item.delivery.id, item.delivery);
    let created: Set<string> | null = null;
    let failure: unknown;
    /** Deliveries that could not be stored on their own (the rest of the batch is unaffected). */
    const refused = new Map<string, unknown>();
    try {
      created = await options.insert([...unique.values()]);
    } catch (error) {
      failure = error;
    }
    if (created === null && unique.size > 1 && !isRetryable(failure)) {
      // One bad delivery must not fail its neighbours: the group is written again one by one, each answered on its own.
      created = new Set();
      for (const delivery of unique.values()) {
        try {
          for (const id of await options.insert([delivery])) created.add(id);
        } catch (error) {
          refused.set(delivery.id, error);
        }
      }
    }
    inFlight -= 1;
    drain();
    if (created === null) {
      for (const item of batch) item.reject(failure);
      return;
    }
    await enqueue([...created]);
    const answered = new Set<string>();
    for (const item of batch) {
      if (refused.has(item.delivery.id)) {
        item.reject(refused.get(item.delivery.id));
        continue;
      }
      item.resolve(created.has(item.delivery.id) && !answered.has(item.delivery.id));
      answered.add(item.delivery.id);
    }
  };

  /** The next batch: up to maxBatch deliveries and maxBatchBytes of payload (always at least one delivery). */
  const takeBatch = (): Pending[] => {
    let count = 0;
    let bytes = 0;
    while (count < pending.length && count < maxBatch) {
      bytes += sizeOf(pending[count]!.delivery);
      if (count > 0 && bytes > maxBatchBytes) break;
      count += 1;
    }
    const batch = pending.slice(0, count);
    pending = pending.slice(count);
    return batch;
  };

  function drain(): void {
    scheduled = false;
    while (pending.length > 0 && inFlight < maxInFlight) {
      inFlight += 1;
      void flush(takeBatch());
    }
  }

  return (delivery) =>
    new Promise<boolean>((resolve, reject) => {
      if (pending.length >= maxPending) {
        reject(transient('intake_overloaded', 'too many webhook deliveries are waiting to be recorded; GitHub will redeliver this one'));
        return;
      }
      pending.push({ delivery, resolve, reject });
      if (!scheduled && inFlight < maxInFlight) {
        scheduled = true;
        setImmediate(drain);
      }
    });
}
