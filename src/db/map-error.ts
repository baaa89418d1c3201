import { transient } from '../errors.js';

/** SQLSTATE classes that describe a passing fault: connection, resources, operator intervention, serialization. */
const TRANSIENT_CLASSES = new Set(['08', '53', '57', '40']);
/** Node socket errors met while Postgres restarts or is unreachable. */
const TRANSIENT_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Types a node-postgres failure by its code (never by message text): a connection or resource fault becomes a
 * `transient` AppError (HTTP 503, retried by workers); anything else is returned unchanged.
 */
export function mapDbError(error: unknown): unknown {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'string') return error;
  if (TRANSIENT_SOCKET_CODES.has(code) || (code.length === 5 && TRANSIENT_CLASSES.has(code.slice(0, 2)))) {
    return transient('database_unavailable', 'the database is unavailable; try again', error);
  }
  return error;
}
