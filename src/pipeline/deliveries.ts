import type { Logger } from 'pino';
import { isAppError } from '../errors.js';
import { jobId } from '../queue/index.js';
import type { PipelineDeps } from './context.js';
import { eventFromWebhook } from './github-payloads.js';
import { handleCiEvent } from './handle-event.js';

/** Extra handling for events other than workflow_run / workflow_job (check_run actions, installations). */
export type DeliveryHook = (delivery: { id: string; event: string; action: string | null; payload: unknown }, deps: PipelineDeps, logger: Logger) => Promise<'processed' | 'ignored'>;

export interface DeliveryProcessor {
  /** Processes one recorded webhook delivery (idempotent: a processed delivery is skipped). */
  process(deliveryId: string, deps: PipelineDeps, logger: Logger): Promise<void>;
  /** Re-enqueues deliveries recorded but never processed (Redis was down when they arrived). */
  sweep(deps: PipelineDeps, logger: Logger): Promise<number>;
}

export function createDeliveryProcessor(hooks: DeliveryHook[] = []): DeliveryProcessor {
  return {
    async process(deliveryId, deps, logger) {
      try {
        await processOne(deliveryId, deps, logger);
      } catch (error) {
        // A delivery whose content cannot be recorded (e.g. text the database refuses) fails alone: the rest of its batch goes on.
        if (!isAppError(error) || error.kind !== 'invalid_input') throw error;
        logger.warn({ err: error, deliveryId }, 'delivery cannot be processed; marked failed');
        await deps.repos.deliveries.finish(deliveryId, 'failed', `${error.code}: ${error.message}`.slice(0, 1000));
      }
    },
    async sweep(deps) {
      const ids = await deps.repos.deliveries.findUnprocessed(500, new Date(Date.now() - 30_000));
      await deps.queues.addBulk('events', ids.map((id) => ({ payload: { source: 'delivery' as const, deliveryId: id }, options: { jobId: jobId('delivery', id) } })));
      return ids.length;
    },
  };

  async function processOne(deliveryId: string, deps: PipelineDeps, logger: Logger): Promise<void> {
    const delivery = await deps.repos.deliveries.get(deliveryId);
    if (delivery === null || delivery.status !== 'received') return;
    const event = eventFromWebhook(delivery.event, delivery.payload);
    if (event !== null) {
      const outcome = await handleCiEvent(deps, event, logger.child({ deliveryId }));
      await deps.repos.deliveries.finish(deliveryId, outcome === 'ignored' ? 'ignored' : 'processed');
      return;
    }
    let status: 'processed' | 'ignored' = 'ignored';
    for (const hook of hooks) {
      if ((await hook({ id: delivery.id, event: delivery.event, action: delivery.action, payload: delivery.payload }, deps, logger)) === 'processed') status = 'processed';
    }
    await deps.repos.deliveries.finish(deliveryId, status);
  }
}
