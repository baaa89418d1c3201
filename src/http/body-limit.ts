import type { FastifyRequest } from 'fastify';
import { invalidInput } from '../errors.js';

/**
 * A streamed body (JSONL, multipart) announced as larger than the limit is refused before any of it is read; one
 * without a length (chunked) is counted while it is read. Either way nothing is written (see createBatch, importInstances).
 */
export function refuseAnnouncedOversize(request: FastifyRequest, limitBytes: number): void {
  const announced = Number(request.headers['content-length']);
  if (!Number.isFinite(announced) || announced <= limitBytes) return;
  throw invalidInput('body_too_large', `the request body is ${announced} bytes; the limit is ${limitBytes} bytes (BODY_LIMIT_BYTES); nothing was written: split it into smaller requests`, { limitBytes }, 413);
}
