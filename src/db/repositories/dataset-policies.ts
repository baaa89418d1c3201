import type { Prisma } from '../client.js';

/** A stored dataset policy row (protection is `ground-truth`, `paths` or `off`). */
export interface DatasetPolicyRow {
  dataset: string;
  protection: string;
  protectedPaths: string[];
  createdAt: Date;
  updatedAt: Date;
}

export interface DatasetPolicyRepository {
  /** The stored policy of a dataset, or null (the default applies). */
  get(dataset: string): Promise<DatasetPolicyRow | null>;
  /** Creates or replaces a dataset's policy. */
  save(dataset: string, policy: { protection: string; protectedPaths: string[] }): Promise<DatasetPolicyRow>;
  /** Whether any instance belongs to the dataset. */
  datasetHasInstances(dataset: string): Promise<boolean>;
}

export function createDatasetPolicyRepository(prisma: Prisma): DatasetPolicyRepository {
  return {
    get: (dataset) => prisma.datasetPolicy.findUnique({ where: { dataset } }),
    save: (dataset, policy) => prisma.datasetPolicy.upsert({ where: { dataset }, create: { dataset, ...policy }, update: policy }),
    async datasetHasInstances(dataset) {
      return (await prisma.instance.findFirst({ where: { dataset }, select: { id: true } })) !== null;
    },
  };
}
