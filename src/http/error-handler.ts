import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../errors.js';

/** Every error answer has this shape: { error: { code, message, details? } }. */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export const errorBody = (code: string, message: string, details?: unknown): ErrorBody => ({
  error: details === undefined ? { code, message } : { code, message, details },
});

/** `retry-after` of a 503 whose error names no wait of its own. */
const TRANSIENT_RETRY_AFTER_MS = 5000;

const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
  FST_ERR_VALIDATION: 'invalid_request',
};

/**
 * Errors the router raises before any route runs (a malformed percent-encoding, a path parameter over the
 * length limit): answered in the documented shape instead of Fastify's own.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.code(414).send(errorBody('uri_too_long', 'a path parameter of the request is too long'));
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply.code(400).send(errorBody('invalid_url', 'the request path is not a valid URL component (malformed percent-encoding)'));
    return;
  }
  void reply.code(500).send(errorBody('internal_error', 'an internal error occurred; it has been logged'));
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody('route_not_found', `no route ${request.method} ${request.url.split('?')[0] ?? ''}`));
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isAppError(error)) {
      const status = error.kind === 'invalid_input' || error.kind === 'rate_limited' ? error.status : 503;
      // A passing fault (database or queue away, overloaded intake) says when to come back; so does a rate limit.
      if (error.kind === 'rate_limited' || error.kind === 'transient') void reply.header('retry-after', Math.max(1, Math.ceil((error.retryAfterMs ?? TRANSIENT_RETRY_AFTER_MS) / 1000)));
      if (error.kind === 'transient') request.log.warn({ err: error, code: error.code }, 'request failed: dependency unavailable');
      else if (status >= 500) request.log.error({ err: error }, 'request failed');
      return reply.code(status).send(errorBody(error.code, error.message, error.details));
    }
    if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (error.statusCode === 400 && error.message.includes('JSON'))) {
      return reply.code(400).send(errorBody('invalid_json', `the request body is not valid JSON: ${error.message}`));
    }
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const code = FASTIFY_CODES[error.code] ?? 'invalid_request';
      return reply.code(status).send(errorBody(code, error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send(errorBody('internal_error', 'an internal error occurred; it has been logged'));
  });
}
