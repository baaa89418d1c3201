import type { FastifyError, FastifyInstance } from 'fastify';
import { isAppError } from '../errors.js';

/** Every error answer has this shape: { error: { code, message, details? } }. */
export interface ErrorBody {
  error: { code: string; message: string; details?: unknown };
}

export const errorBody = (code: string, message: string, details?: unknown): ErrorBody => ({
  error: details === undefined ? { code, message } : { code, message, details },
});

const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
  FST_ERR_VALIDATION: 'invalid_request',
};

export function installErrorHandler(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody('route_not_found', `no route ${request.method} ${request.url.split('?')[0] ?? ''}`));
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isAppError(error)) {
      if (error.kind === 'rate_limited' && error.retryAfterMs !== undefined) void reply.header('retry-after', Math.ceil(error.retryAfterMs / 1000));
      const status = error.kind === 'invalid_input' || error.kind === 'rate_limited' ? error.status : 503;
      if (status >= 500) request.log.error({ err: error }, 'request failed');
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
