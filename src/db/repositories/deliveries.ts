import type pg from 'pg';
import type { Prisma } from '../client.js';
import { mapDbError } from '../map-error.js';
import type { WebhookDeliveryRow } from '../types.js';

/** A recorded delivery with its payload parsed (it is stored as the raw bytes GitHub signed). */
export type RecordedDelivery = Omit<WebhookDeliveryRow, 'payload'> & { payload: unknown };

export interface NewDelivery {
  id: string;
  event: string;
  action: string | null;
  hookId: bigint | null;
  installationId: bigint | null;
  repoFullName: string | null;
  /** The payload's JSON text exactly as received (the signed bytes, stored verbatim). */
  payload: string | Buffer;
}

const COLUMNS = 7;

export interface DeliveryRepository {
  /** Records a delivery once per GUID; returns false when it was already recorded. */
  record(input: NewDelivery): Promise<boolean>;
  /** Records many deliveries in one statement; returns the ids that were new. */
  recordMany(inputs: NewDelivery[]): Promise<Set<string>>;
  get(id: string): Promise<RecordedDelivery | null>;
  /** Whether a delivery with this GUID is recorded (without reading its payload). */
  exists(id: string): Promise<boolean>;
  finish(id: string, status: 'processed' | 'ignored' | 'failed', error?: string): Promise<void>;
  findUnprocessed(limit: number, receivedBefore: Date): Promise<string[]>;
}

export function createDeliveryRepository(prisma: Prisma, pool: pg.Pool): DeliveryRepository {
  const recordMany = async (inputs: NewDelivery[]): Promise<Set<string>> => {
    if (inputs.length === 0) return new Set();
    if (inputs.length * COLUMNS > 65_535) throw new RangeError(`recordMany takes at most ${Math.floor(65_535 / COLUMNS)} deliveries per call`);
    // One parameter per cell (not unnest over arrays): node-postgres would escape every 10 KB payload into an
    // array literal, which costs more than the insert itself. Payloads go through untouched.
    const params: unknown[] = [];
    const tuples: string[] = [];
    // In id order, so two concurrent batches that share GUIDs take their row locks in the same order (no deadlock).
    for (const input of [...inputs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
      const at = params.length;
      const payload = typeof input.payload === 'string' ? Buffer.from(input.payload, 'utf8') : input.payload;
      params.push(input.id, input.event, input.action, input.hookId?.toString() ?? null, input.installationId?.toString() ?? null, input.repoFullName, payload);
      tuples.push(`($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}::bigint, $${at + 5}::bigint, $${at + 6}, $${at + 7}::bytea)`);
    }
    const sql = `INSERT INTO "WebhookDelivery" ("id", "event", "action", "hookId", "installationId", "repoFullName", "payload")
       VALUES ${tuples.join(', ')} ON CONFLICT ("id") DO NOTHING RETURNING "id"`;
    const result = await pool.query<{ id: string }>(sql, params).catch((error: unknown) => {
      throw mapDbError(error);
    });
    return new Set(result.rows.map((row) => row.id));
  };
  return {
    recordMany,
    async record(input) {
      return (await recordMany([input])).has(input.id);
    },
    async get(id) {
      const row = await prisma.webhookDelivery.findUnique({ where: { id } });
      if (row === null) return null;
      return { ...row, payload: JSON.parse(Buffer.from(row.payload).toString('utf8')) as unknown };
    },
    async exists(id) {
      return (await prisma.webhookDelivery.count({ where: { id } })) > 0;
    },
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
