import type { Prisma } from '../client.js';
import type { InstanceRow } from '../types.js';

/** An instance as the catalog imports it (see src/catalog/parse-instance.ts). */
export interface InstanceInput {
  id: string;
  dataset: string;
  language: string;
  repoOwner: string;
  repoName: string;
  sourceRepoOwner: string | null;
  upstreamUrl: string | null;
  headBranch: string | null;
  workflowName: string | null;
  workflowFilename: string | null;
  workflowPath: string;
  workflow: string;
  shaFail: string;
  shaSuccess: string | null;
  diff: string;
  changedFiles: string[];
  commitDate: Date | null;
  logs: { step_name: string; log: string }[];
  labels: string[];
  rawLabels: string[];
  protectedPaths: string[];
  oracleSha: string | null;
  subtasks: unknown;
  basePassingTests: string[];
  pythonVersion: string | null;
  installCommand: string | null;
  contentHash: string;
  metadata: Record<string, unknown>;
  /** Ground truth and stored logs readable by submitters; absent keeps the stored flag (new rows: false). */
  public?: boolean;
}

export type ImportOutcome = 'created' | 'updated' | 'unchanged';

export interface InstanceFilter {
  repo?: string;
  label?: string;
  health?: string;
  cursor?: string;
  limit: number;
}

export interface InstanceRepository {
  upsert(input: InstanceInput): Promise<ImportOutcome>;
  /** Upserts every row in one transaction (all or nothing); rows come in chunks (e.g. from a spool). */
  upsertMany(rows: AsyncIterable<InstanceInput[]>): Promise<Record<ImportOutcome, number>>;
  get(id: string): Promise<InstanceRow | null>;
  list(filter: InstanceFilter): Promise<InstanceRow[]>;
  setHealth(id: string, health: string): Promise<void>;
  /** Marks the instance public (ground truth readable by submitters) or not; null when it does not exist. */
  setPublic(id: string, value: boolean): Promise<InstanceRow | null>;
  listAll(): Promise<InstanceRow[]>;
}

type Client = Pick<Prisma, 'instance'>;

/** Inserts or updates one instance by id; a row whose content hash is unchanged is left alone. */
async function upsertOne(prisma: Client, input: InstanceInput): Promise<ImportOutcome> {
  const data = {
    ...input,
    changedFiles: input.changedFiles,
    logs: input.logs,
    subtasks: input.subtasks === null ? undefined : (input.subtasks as object),
    metadata: input.metadata as object,
  };
  const existing = await prisma.instance.findUnique({ where: { id: input.id }, select: { contentHash: true } });
  if (existing?.contentHash === input.contentHash) return 'unchanged';
  if (existing === null) {
    const created = await prisma.instance.createMany({ data: [data], skipDuplicates: true });
    if (created.count === 1) return 'created';
  }
  await prisma.instance.update({ where: { id: input.id }, data });
  return 'updated';
}

/** How long one import's transaction may take (thousands of rows with their logs). */
const IMPORT_TRANSACTION_MS = 30 * 60_000;

export function createInstanceRepository(prisma: Prisma): InstanceRepository {
  return {
    upsert: (input) => upsertOne(prisma, input),
    upsertMany: (rows) =>
      prisma.$transaction(
        async (tx) => {
          const counts: Record<ImportOutcome, number> = { created: 0, updated: 0, unchanged: 0 };
          for await (const chunk of rows) for (const row of chunk) counts[await upsertOne(tx, row)] += 1;
          return counts;
        },
        { maxWait: 10_000, timeout: IMPORT_TRANSACTION_MS },
      ),
    get: (id) => prisma.instance.findUnique({ where: { id } }),
    list(filter) {
      const [owner, name] = filter.repo?.split('/') ?? [];
      return prisma.instance.findMany({
        where: {
          ...(owner !== undefined ? { repoOwner: owner, ...(name !== undefined ? { repoName: name } : {}) } : {}),
          ...(filter.label !== undefined ? { labels: { has: filter.label } } : {}),
          ...(filter.health !== undefined ? { health: filter.health } : {}),
          ...(filter.cursor !== undefined ? { id: { gt: filter.cursor } } : {}),
        },
        orderBy: { id: 'asc' },
        take: filter.limit,
      });
    },
    async setHealth(id, health) {
      await prisma.instance.update({ where: { id }, data: { health, healthCheckedAt: new Date() } });
    },
    async setPublic(id, value) {
      const updated = await prisma.instance.updateMany({ where: { id }, data: { public: value } });
      return updated.count === 1 ? prisma.instance.findUnique({ where: { id } }) : null;
    },
    listAll: () => prisma.instance.findMany({ orderBy: { id: 'asc' } }),
  };
}
