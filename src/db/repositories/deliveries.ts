import type pg from 'pg';
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
  /** Records many deliveries in one statement; returns the ids that were new. */
  recordMany(inputs: NewDelivery[]): Promise<Set<string>>;
  get(id: string): Promise<WebhookDeliveryRow | null>;
  finish(id: string, status: 'processed' | 'ignored' | 'failed', error?: string): Promise<void>;
  findUnprocessed(limit: number, receivedBefore: Date): Promise<string[]>;
}

export function createDeliveryRepository(prisma: Prisma, pool: pg.Pool): DeliveryRepository {
  return {
    async recordMany(inputs) {
      if (inputs.length === 0) return new Set();
      const column = <K extends keyof NewDelivery>(key: K) => inputs.map((input) => input[key]);
      const result = await pool.query<{ id: string }>(
        `INSERT INTO "WebhookDelivery" ("id", "event", "action", "hookId", "installationId", "repoFullName", "payload")
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::json[])
         ON CONFLICT ("id") DO NOTHING RETURNING "id"`,
        [
          column('id'),
          column('event'),
          column('action'),
          column('hookId').map((value) => value?.toString() ?? null),
          column('installationId').map((value) => value?.toString() ?? null),
          column('repoFullName'),
          inputs.map((input) => JSON.stringify(input.payload)),
        ],
      );
      return new Set(result.rows.map((row) => row.id));
    },
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
