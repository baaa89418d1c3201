import type { Prisma } from '../client.js';
import type { RevalidationRow } from '../types.js';

export interface RevalidationRepository {
  create(instanceId: string, submissionIds: string[], details: Record<string, unknown>): Promise<RevalidationRow>;
  listRunning(limit: number): Promise<RevalidationRow[]>;
  listForInstance(instanceId: string, limit: number): Promise<RevalidationRow[]>;
  complete(id: string, result: string, details: Record<string, unknown>): Promise<boolean>;
  /** Instances never checked, or last checked before `before`, that have no revalidation running. */
  dueInstances(before: Date, limit: number): Promise<string[]>;
}

export function createRevalidationRepository(prisma: Prisma): RevalidationRepository {
  return {
    create: (instanceId, submissionIds, details) => prisma.revalidation.create({ data: { instanceId, submissionIds, details: details as object, status: 'running' } }),
    listRunning: (limit) => prisma.revalidation.findMany({ where: { status: 'running' }, orderBy: { startedAt: 'asc' }, take: limit }),
    listForInstance: (instanceId, limit) => prisma.revalidation.findMany({ where: { instanceId }, orderBy: { startedAt: 'desc' }, take: limit }),
    async complete(id, result, details) {
      const updated = await prisma.revalidation.updateMany({ where: { id, status: 'running' }, data: { status: 'completed', result, details: details as object, completedAt: new Date() } });
      return updated.count === 1;
    },
    async dueInstances(before, limit) {
      const rows = await prisma.instance.findMany({
        where: { OR: [{ healthCheckedAt: null }, { healthCheckedAt: { lt: before } }], revalidations: { none: { status: 'running' } } },
        orderBy: [{ healthCheckedAt: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }],
        take: limit,
        select: { id: true },
      });
      return rows.map((row) => row.id);
    },
  };
}
