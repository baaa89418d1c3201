import cookie from '@fastify/cookie';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authenticate } from '../../auth/tokens.js';
import type { Repositories } from '../../db/index.js';
import { invalidInput } from '../../errors.js';
import { principalOf } from '../auth.js';
import { errorBody } from '../error-handler.js';
import { parseInput } from '../validate.js';

/** The dashboard's session cookie: `<random secret>.<HMAC>`, HttpOnly, SameSite=Strict; only the secret's SHA-256 is stored. */
export const SESSION_COOKIE = 'cirp_ui';

export interface SessionOptions {
  repos: Pick<Repositories, 'tokens' | 'uiSessions'>;
  /** Signs the cookie; undefined: a random secret for this process. */
  secret: string | undefined;
  hours: number;
  /** https public URLs get `Secure` cookies. */
  publicUrl: string;
}

const loginBody = z.object({ token: z.string().trim().min(1, 'paste an API token (cirp_…)').max(200) });
const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Whether a state-changing request comes from this origin (SameSite=Strict already keeps cross-site requests out). */
function sameOrigin(request: FastifyRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string') return fetchSite === 'same-origin';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return false;
  return URL.canParse(origin) && new URL(origin).host === request.headers.host;
}

/**
 * Cookie sessions for the dashboard: `POST /ui/session {token}` checks the token and sets the cookie (the token
 * itself is never stored nor put in a URL), `GET /ui/session` says who is signed in, `POST /ui/logout` ends the
 * session. A request without an Authorization header but with a live session acts as the session's token: the
 * same roles and ownership rules as the bearer token (src/http/auth.ts); state-changing requests only same-origin.
 */
export async function registerSessions(app: FastifyInstance, options: SessionOptions): Promise<void> {
  const secret = options.secret ?? randomBytes(32).toString('hex');
  await app.register(cookie, { secret, hook: 'onRequest' });
  const secure = options.publicUrl.startsWith('https://');
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'strict', secure, signed: true } as const;

  const sessionSecretOf = (request: FastifyRequest): string | null => {
    const raw = request.cookies[SESSION_COOKIE];
    if (raw === undefined) return null;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value !== null ? unsigned.value : null;
  };

  app.addHook('onRequest', async (request) => {
    if (request.headers.authorization !== undefined) return;
    const sessionSecret = sessionSecretOf(request);
    if (sessionSecret === null || !sameOrigin(request)) return;
    const session = await options.repos.uiSessions.findActive(hashSecret(sessionSecret));
    if (session === null) return;
    request.principal = { tokenId: session.tokenId, name: session.name, role: session.role === 'operator' ? 'operator' : 'submitter' };
  });

  app.post('/ui/session', { config: { auth: 'public' }, schema: { tags: ['dashboard'], summary: 'Dashboard login: exchange an API token for a session cookie (HttpOnly, SameSite=Strict, signed)' } }, async (request, reply) => {
    if (!sameOrigin(request)) throw invalidInput('forbidden', 'log in from the dashboard itself', undefined, 403);
    const { token } = parseInput(loginBody, request.body, 'body');
    const principal = await authenticate(options.repos.tokens, token);
    if (principal === null) return reply.code(401).send(errorBody('unauthorized', 'the token is unknown or revoked'));
    const sessionSecret = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + options.hours * 3600_000);
    await options.repos.uiSessions.create({ secretHash: hashSecret(sessionSecret), tokenId: principal.tokenId, expiresAt });
    void options.repos.uiSessions.deleteExpired().catch(() => undefined);
    return reply
      .setCookie(SESSION_COOKIE, sessionSecret, { ...cookieOptions, expires: expiresAt })
      .code(201)
      .send({ name: principal.name, role: principal.role, expiresAt });
  });

  app.get('/ui/session', { schema: { tags: ['dashboard'], summary: 'Who the dashboard session (or bearer token) is' } }, async (request) => {
    const principal = principalOf(request);
    return { name: principal.name, role: principal.role };
  });

  app.post('/ui/logout', { config: { auth: 'public' }, schema: { tags: ['dashboard'], summary: 'End the dashboard session' } }, async (request, reply) => {
    const sessionSecret = sessionSecretOf(request);
    if (sessionSecret !== null && sameOrigin(request)) await options.repos.uiSessions.delete(hashSecret(sessionSecret));
    return reply.clearCookie(SESSION_COOKIE, { path: '/' }).code(204).send();
  });
}
