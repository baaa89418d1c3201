import type { Role } from '../../domain/states.js';
import type { Prisma } from '../client.js';
import type { ApiTokenRow } from '../types.js';

export interface TokenRepository {
  create(input: { name: string; role: Role; tokenHash: string; prefix: string }): Promise<ApiTokenRow>;
  findActiveByHash(tokenHash: string): Promise<ApiTokenRow | null>;
  touch(id: string): Promise<void>;
  revoke(id: string): Promise<boolean>;
  list(): Promise<ApiTokenRow[]>;
}

export function createTokenRepository(prisma: Prisma): TokenRepository {
  return {
    create: (input) => prisma.apiToken.create({ data: input }),
    findActiveByHash: (tokenHash) => prisma.apiToken.findFirst({ where: { tokenHash, revokedAt: null } }),
    async touch(id) {
      await prisma.apiToken.update({ where: { id }, data: { lastUsedAt: new Date() } });
    },
    async revoke(id) {
      const result = await prisma.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
      return result.count === 1;
    },
    list: () => prisma.apiToken.findMany({ orderBy: { createdAt: 'asc' } }),
  };
}
