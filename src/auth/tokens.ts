import { createHash, randomBytes } from 'node:crypto';
import type { TokenRepository } from '../db/index.js';
import type { Role } from '../domain/states.js';
import type { Principal } from './principal.js';

export type { Principal } from './principal.js';

const TOKEN_PREFIX = 'cirp_';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Mints a random bearer token; only its hash is stored, the token itself is shown once. */
export async function mintToken(tokens: TokenRepository, input: { name: string; role: Role }): Promise<{ id: string; token: string; role: Role; name: string }> {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await tokens.create({ name: input.name, role: input.role, tokenHash: hashToken(token), prefix: token.slice(0, TOKEN_PREFIX.length + 6) });
  return { id: row.id, token, role: input.role, name: input.name };
}

/** Resolves a bearer token to its principal, or null when unknown or revoked. */
export async function authenticate(tokens: TokenRepository, token: string): Promise<Principal | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const row = await tokens.findActiveByHash(hashToken(token));
  if (row === null) return null;
  void tokens.touch(row.id).catch(() => undefined);
  return { tokenId: row.id, name: row.name, role: row.role === 'operator' ? 'operator' : 'submitter' };
}
