import { z } from 'zod';

/** Queue names of the pipeline (see README "Architecture"). */
export const QUEUE_NAMES = ['prepare', 'events', 'logs', 'finalize', 'maintenance'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

const id = z.string().min(1).max(200);

/** Job payloads carry ids, never secrets or large bodies; each is validated when a worker picks it up. */
export const payloadSchemas = {
  prepare: z.object({ submissionId: id }),
  events: z.discriminatedUnion('source', [
    z.object({ source: z.literal('delivery'), deliveryId: id }),
    z.object({ source: z.literal('deliveries'), deliveryIds: z.array(id).min(1).max(1000) }),
    z.object({ source: z.literal('local'), eventId: id, event: z.record(z.string(), z.unknown()) }),
  ]),
  logs: z.object({ submissionId: id, jobRowId: id }),
  finalize: z.object({ submissionId: id }),
  maintenance: z.object({ task: z.enum(['recover', 'reconcile', 'revalidate']), submissionId: id.optional(), instanceId: id.optional() }),
} satisfies Record<QueueName, z.ZodType>;

export type Payload<N extends QueueName> = z.infer<(typeof payloadSchemas)[N]>;

/** Job ids derive from domain ids: no colons, never all digits (BullMQ rejects both). */
export function jobId(kind: string, ...parts: (string | number)[]): string {
  const raw = [kind, ...parts].join('-');
  return raw.replace(/:/g, '_');
}
