import type { Prisma } from '../client.js';
import type { WebhookDeliveryRow } from '../types.js';

export interface NewDelivery {
  id: string;
  event: string;
  action: string | null;
  hookId: bigint | null;
  installationId: bigint | null;
  repoFullName: string | null;
  payload: unknown;
}

export interface DeliveryRepository {
  /** Records a delivery once per GUID; returns false when it was already recorded. */
  record(input: NewDelivery): Promise<boolean>;
  get(id: string): Promise<WebhookDeliveryRow | null>;
  finish(id: string, status: 'processed' | 'ignored' | 'failed', error?: string): Promise<void>;
  findUnprocessed(limit: number, receivedBefore: Date): Promise<string[]>;
}

export function createDeliveryRepository(prisma: Prisma): DeliveryRepository {
  return {
    async record(input) {
      const result = await prisma.webhookDelivery.createMany({
        data: [{ ...input, payload: input.payload as object }],
        skipDuplicates: true,
      });
      return result.count === 1;
    },
    get: (id) => prisma.webhookDelivery.findUnique({ where: { id } }),
    async finish(id, status, error) {
      await prisma.webhookDelivery.update({ where: { id }, data: { status, error: error ?? null, processedAt: new Date() } });
    },
    async findUnprocessed(limit, receivedBefore) {
      const rows = await prisma.webhookDelivery.findMany({
        where: { status: 'received', receivedAt: { lt: receivedBefore } },
        orderBy: { receivedAt: 'asc' },
        take: limit,
        select: { id: true },
      });
      return rows.map((row) => row.id);
    },
  };
}
