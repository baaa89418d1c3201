import type { Prisma } from '../client.js';

/** A live dashboard session with the token it was opened with. */
export interface UiSessionPrincipal {
  sessionId: string;
  tokenId: string;
  name: string;
  role: string;
  expiresAt: Date;
}

/** Dashboard sessions (/ui token login): only the SHA-256 of the cookie's secret is stored. */
export interface UiSessionRepository {
  create(input: { secretHash: string; tokenId: string; expiresAt: Date }): Promise<{ id: string }>;
  /** The session with this secret hash when it has not expired and its token is not revoked, else null. */
  findActive(secretHash: string, now?: Date): Promise<UiSessionPrincipal | null>;
  /** Ends a session (logout); returns whether one was deleted. */
  delete(secretHash: string): Promise<boolean>;
  /** Removes expired sessions; returns how many. */
  deleteExpired(now?: Date): Promise<number>;
}

export function createUiSessionRepository(prisma: Prisma): UiSessionRepository {
  return {
    create: (input) => prisma.uiSession.create({ data: input, select: { id: true } }),
    async findActive(secretHash, now = new Date()) {
      const row = await prisma.uiSession.findFirst({
        where: { secretHash, expiresAt: { gt: now }, token: { revokedAt: null } },
        select: { id: true, expiresAt: true, token: { select: { id: true, name: true, role: true } } },
      });
      if (row === null) return null;
      return { sessionId: row.id, tokenId: row.token.id, name: row.token.name, role: row.token.role, expiresAt: row.expiresAt };
    },
    async delete(secretHash) {
      const result = await prisma.uiSession.deleteMany({ where: { secretHash } });
      return result.count > 0;
    },
    async deleteExpired(now = new Date()) {
      const result = await prisma.uiSession.deleteMany({ where: { expiresAt: { lte: now } } });
      return result.count;
    },
  };
}
