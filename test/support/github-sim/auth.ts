import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { GhError } from './http/gh-error.js';
import type { Permissions, SimInstallation, SimRepo, SimState, SimToken } from './types.js';

export type AuthContext =
  | { kind: 'none' }
  | { kind: 'app'; appId: number }
  | { kind: 'installation'; token: SimToken; installation: SimInstallation };

const DOCS_AUTH = 'https://docs.github.com/rest';

/** Reads `Authorization: Bearer <jwt>` or `token|Bearer <installation token>`; throws 401 like GitHub. */
export function authenticate(state: SimState, publicKey: KeyObject, headers: IncomingHttpHeaders, now = Date.now()): AuthContext {
  const header = headers.authorization;
  if (!header) return { kind: 'none' };
  const m = /^(bearer|token)\s+(\S+)$/i.exec(header.trim());
  if (!m) throw new GhError(401, 'Bad credentials', { documentationUrl: DOCS_AUTH });
  const credential = m[2] ?? '';
  if (credential.split('.').length === 3) return { kind: 'app', appId: verifyAppJwt(state, publicKey, credential, now) };
  return installationAuth(state, credential, now);
}

export function installationAuth(state: SimState, credential: string, now = Date.now()): AuthContext {
  const token = state.tokens.get(credential);
  if (!token || token.expiresAt <= now) throw new GhError(401, 'Bad credentials', { documentationUrl: DOCS_AUTH });
  const installation = state.installations.get(token.installationId);
  if (!installation) throw new GhError(401, 'Bad credentials', { documentationUrl: DOCS_AUTH });
  return { kind: 'installation', token, installation };
}

function verifyAppJwt(state: SimState, publicKey: KeyObject, jwt: string, now: number): number {
  const [h, p, s] = jwt.split('.');
  const fail = (message: string): GhError => new GhError(401, message, { documentationUrl: DOCS_AUTH });
  if (!h || !p || !s) throw fail('A JSON web token could not be decoded');
  let header: { alg?: string };
  let payload: { iss?: unknown; exp?: unknown; iat?: unknown };
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as typeof header;
    payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as typeof payload;
  } catch {
    throw fail('A JSON web token could not be decoded');
  }
  if (header.alg !== 'RS256') throw fail('A JSON web token could not be decoded');
  const ok = verify('RSA-SHA256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url'));
  if (!ok) throw fail('A JSON web token could not be decoded');
  const seconds = Math.floor(now / 1000);
  if (typeof payload.exp !== 'number' || payload.exp < seconds) {
    throw fail("'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires");
  }
  if (typeof payload.iat === 'number' && payload.iat > seconds + 60) throw fail("'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued");
  if (payload.exp - (typeof payload.iat === 'number' ? payload.iat : seconds) > 660) throw fail("'Expiration time' claim ('exp') is too far in the future");
  if (String(payload.iss) !== String(state.app.id) && payload.iss !== state.app.clientId) throw fail('Integration not found');
  return state.app.id;
}

export function publicKeyFromPem(pem: string): KeyObject {
  return createPublicKey(pem);
}

export function requireApp(auth: AuthContext): void {
  if (auth.kind === 'app') return;
  if (auth.kind === 'none') throw new GhError(401, 'Requires authentication', { documentationUrl: DOCS_AUTH });
  throw new GhError(401, 'A JSON web token could not be decoded', { documentationUrl: DOCS_AUTH });
}

export function requireInstallation(auth: AuthContext): Extract<AuthContext, { kind: 'installation' }> {
  if (auth.kind === 'installation') return auth;
  if (auth.kind === 'none') throw new GhError(401, 'Requires authentication', { documentationUrl: DOCS_AUTH });
  throw new GhError(403, 'Resource not accessible by integration');
}

const LEVEL: Record<string, number> = { read: 1, write: 2, admin: 3 };

export function hasPermission(permissions: Permissions, name: string, level: 'read' | 'write'): boolean {
  // Every installation token can read repository metadata.
  if (name === 'metadata' && level === 'read') return true;
  const granted = permissions[name];
  return granted !== undefined && (LEVEL[granted] ?? 0) >= (LEVEL[level] ?? 9);
}

/** Whether an installation token may see the repository (installation scope, narrowed by the token's repositories). */
export function tokenCoversRepo(auth: Extract<AuthContext, { kind: 'installation' }>, repo: SimRepo): boolean {
  if (!installationCoversRepo(auth.installation, repo)) return false;
  return auth.token.repositories === null || auth.token.repositories.includes(repo.fullName.toLowerCase());
}

export function installationCoversRepo(installation: SimInstallation, repo: SimRepo): boolean {
  if (installation.account.login.toLowerCase() !== repo.owner.login.toLowerCase()) return false;
  if (installation.repositorySelection === 'all') return true;
  return installation.repositories.some((name) => name.toLowerCase() === repo.fullName.toLowerCase());
}

/** Repository access for REST: 404 when the token cannot see it, 403 when it lacks the permission. */
export function requireRepoAccess(auth: AuthContext, repo: SimRepo | undefined, permission: string, level: 'read' | 'write'): SimRepo {
  if (!repo) throw new GhError(404, 'Not Found');
  if (auth.kind === 'none') {
    if (!repo.private && level === 'read') return repo;
    throw new GhError(auth.kind === 'none' && repo.private ? 404 : 401, repo.private ? 'Not Found' : 'Requires authentication');
  }
  if (auth.kind === 'app') throw new GhError(403, 'Resource not accessible by integration');
  const covers = tokenCoversRepo(auth, repo);
  if (!covers && (repo.private || level === 'write')) throw new GhError(covers ? 403 : 404, covers ? 'Resource not accessible by integration' : 'Not Found');
  if (covers && !hasPermission(auth.token.permissions, permission, level)) throw new GhError(403, 'Resource not accessible by integration');
  return repo;
}

export function mintToken(state: SimState, installation: SimInstallation, permissions: Permissions, ttlMs: number, now = Date.now(), repositories: string[] | null = null): SimToken {
  const token: SimToken = {
    token: `ghs_${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x')}`,
    installationId: installation.id,
    permissions,
    expiresAt: now + ttlMs,
    repositories: repositories?.map((name) => name.toLowerCase()) ?? null,
  };
  state.tokens.set(token.token, token);
  return token;
}
