import type { Prisma } from '../client.js';
import type { RunRow } from '../types.js';

export interface RunRepository {
  /** `ownerTokenId`: the API token that owns the run; null or absent (CLI) = operators only. */
  create(input: { label: string; metadata: Record<string, unknown>; ownerTokenId?: string | null }): Promise<RunRow>;
  get(id: string): Promise<RunRow | null>;
  countByState(id: string): Promise<Record<string, number>>;
  list(limit: number): Promise<RunRow[]>;
  /** The newest run with this label and owner (null: the CLI's runs). */
  findByLabel(label: string, ownerTokenId: string | null): Promise<RunRow | null>;
}

export function createRunRepository(prisma: Prisma): RunRepository {
  return {
    create: (input) => prisma.run.create({ data: { label: input.label, metadata: input.metadata as object, ownerTokenId: input.ownerTokenId ?? null } }),
    get: (id) => prisma.run.findUnique({ where: { id } }),
    async countByState(id) {
      const groups = await prisma.submission.groupBy({ by: ['state'], where: { runId: id }, _count: { _all: true } });
      return Object.fromEntries(groups.map((group) => [group.state, group._count._all]));
    },
    list: (limit) => prisma.run.findMany({ orderBy: { createdAt: 'desc' }, take: limit }),
    findByLabel: (label, ownerTokenId) => prisma.run.findFirst({ where: { label, ownerTokenId }, orderBy: { createdAt: 'desc' } }),
  };
}
