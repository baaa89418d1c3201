import type { Prisma } from '../client.js';
import type { BenchRepoRow } from '../types.js';

export interface BenchRepoInput {
  backend: 'local' | 'github';
  upstreamOwner: string;
  upstreamName: string;
  owner: string;
  name: string;
  mode: string;
  githubRepoId?: bigint | null;
  actionsEnabled?: boolean;
}

export interface BenchRepoRepository {
  /** Creates or refreshes the benchmark repository of an upstream (one per backend and upstream). */
  ensure(input: BenchRepoInput): Promise<BenchRepoRow>;
  findByFullName(backend: 'local' | 'github', fullName: string): Promise<BenchRepoRow | null>;
  find(backend: 'local' | 'github', upstreamOwner: string, upstreamName: string): Promise<BenchRepoRow | null>;
  markSynced(id: string, patch: { actionsEnabled?: boolean; githubRepoId?: bigint | null }): Promise<void>;
}

export function createBenchRepoRepository(prisma: Prisma): BenchRepoRepository {
  return {
    async ensure(input) {
      const key = { backend: input.backend, upstreamOwner: input.upstreamOwner, upstreamName: input.upstreamName };
      await prisma.benchRepo.createMany({ data: [{ ...input }], skipDuplicates: true });
      return prisma.benchRepo.findUniqueOrThrow({ where: { backend_upstreamOwner_upstreamName: key } });
    },
    findByFullName(backend, fullName) {
      const [owner = '', name = ''] = fullName.split('/');
      return prisma.benchRepo.findUnique({ where: { backend_owner_name: { backend, owner, name } } });
    },
    find: (backend, upstreamOwner, upstreamName) =>
      prisma.benchRepo.findUnique({ where: { backend_upstreamOwner_upstreamName: { backend, upstreamOwner, upstreamName } } }),
    async markSynced(id, patch) {
      await prisma.benchRepo.update({ where: { id }, data: { ...patch, lastSyncAt: new Date() } });
    },
  };
}
