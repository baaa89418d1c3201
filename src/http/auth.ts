import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import { authenticate } from '../auth/tokens.js';
import type { TokenRepository } from '../db/index.js';
import type { Role } from '../domain/states.js';
import { AppError } from '../errors.js';
import { errorBody } from './error-handler.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every route that is not `public`; read it with principalOf(). */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Minimum role for the route; 'public' routes need no token. */
    auth?: 'public' | Role | 'any';
  }
}

/** Bearer-token check: `any` accepts both roles; `operator` routes refuse submitters. */
export function authHook(tokens: TokenRepository) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const required = request.routeOptions.config.auth ?? 'any';
    if (required === 'public') return;
    // Already known from a dashboard session cookie (src/http/dashboard/session.ts); the role check still applies.
    if (request.principal !== null) {
      if (required === 'operator' && request.principal.role !== 'operator') await reply.code(403).send(errorBody('forbidden', 'this operation needs an operator token'));
      return;
    }
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (match?.[1] === undefined) {
      await reply
        .code(401)
        .header('www-authenticate', 'Bearer')
        .send(errorBody('unauthorized', 'missing bearer token: send "Authorization: Bearer <token>" (mint one with `ci-replay token create`)'));
      return;
    }
    const principal = await authenticate(tokens, match[1]);
    if (principal === null) {
      await reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"').send(errorBody('unauthorized', 'the bearer token is unknown or revoked'));
      return;
    }
    if (required === 'operator' && principal.role !== 'operator') {
      await reply.code(403).send(errorBody('forbidden', 'this operation needs an operator token'));
      return;
    }
    request.principal = principal;
  };
}

/**
 * The caller of an authenticated route: `{ tokenId, name, role }`. Ownership follows `tokenId`; a route that
 * reads it must not be `public` (then there is no caller, and this answers 401).
 */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new AppError('invalid_input', 'this route needs a bearer token', { code: 'unauthorized', status: 401 });
  return request.principal;
}
