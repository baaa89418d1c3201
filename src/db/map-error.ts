import pg from 'pg';
import { AppError, isAppError } from '../errors.js';
import { Prisma } from './generated/client.js';
import { isConnectionFailure } from './guarded-pool.js';

/** How long an API client is told to wait (`retry-after`) before trying again while the database is away. */
export const DATABASE_RETRY_AFTER_MS = 5000;

/**
 * SQLSTATE classes that describe a passing fault: 08 connection exception (08000, 08003, 08006, 08001, 08004),
 * 53 insufficient resources (53300 too_many_connections, 53100 disk_full), 57 operator intervention (57P01
 * admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now), 40 transaction rollback (serialization
 * failure, deadlock).
 */
const TRANSIENT_CLASSES = new Set(['08', '53', '57', '40']);

/** Socket errors of the operating system: the server cannot be reached or went away. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED', 'EADDRNOTAVAIL']);

/**
 * Prisma's codes for the same faults: P1001 can't reach the server, P1002 timed out, P1008 operation timed out,
 * P1017 server closed the connection, P2024 timed out fetching a connection from the pool, P2034 write
 * conflict or deadlock, P2037 too many connections.
 */
const TRANSIENT_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2034', 'P2037']);

/** What the driver adapter reports (meta.driverAdapterError.cause.kind) for a connection that failed. */
const TRANSIENT_ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections', 'TransactionWriteConflict', 'TransactionAlreadyClosed']);

type Verdict = 'transient' | 'invalid_value' | 'other';

const unavailable = (cause: unknown): AppError =>
  new AppError('transient', 'the database is unavailable; try again', { code: 'database_unavailable', cause, retryAfterMs: DATABASE_RETRY_AFTER_MS });

const bySqlState = (code: string | undefined): Verdict => {
  if (code === undefined || code.length !== 5) return 'other';
  if (TRANSIENT_CLASSES.has(code.slice(0, 2))) return 'transient';
  // 22: data exception (a NUL byte in text, a malformed value, a number out of range): the value, not the database.
  return code.startsWith('22') ? 'invalid_value' : 'other';
};

const record = (value: unknown): Record<string, unknown> | undefined => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined);

/** The driver adapter's error as Prisma carries it (known request errors) or as thrown by the adapter itself. */
function adapterCause(error: unknown): Record<string, unknown> | undefined {
  const fromMeta = record(record(record(error)?.meta)?.driverAdapterError)?.cause;
  if (fromMeta !== undefined) return record(fromMeta);
  const self = record(error);
  return self?.name === 'DriverAdapterError' ? record(self.cause) : undefined;
}

function classify(error: unknown): Verdict {
  if (error instanceof pg.DatabaseError) return bySqlState(error.code);
  if (isConnectionFailure(error)) return 'transient';
  const cause = adapterCause(error);
  if (cause !== undefined) {
    if (TRANSIENT_ADAPTER_KINDS.has(String(cause.kind))) return 'transient';
    const state = bySqlState(typeof cause.originalCode === 'string' ? cause.originalCode : typeof cause.code === 'string' ? cause.code : undefined);
    if (state !== 'other') return state;
  }
  if (error instanceof Prisma.PrismaClientKnownRequestError) return TRANSIENT_PRISMA_CODES.has(error.code) ? 'transient' : 'other';
  // The client could not start: server unreachable or starting up. Wrong credentials or a missing database stay as they are.
  if (error instanceof Prisma.PrismaClientInitializationError) return ['P1000', 'P1003', 'P1010', 'P1011', 'P1012'].includes(error.errorCode ?? '') ? 'other' : 'transient';
  const node = record(error);
  if (typeof node?.code === 'string' && typeof node.syscall === 'string' && SOCKET_CODES.has(node.code)) return 'transient';
  // A rejection the pool or the adapter wrapped: look one level down.
  if (error instanceof Error && error.cause !== undefined && error.cause !== error && !isAppError(error.cause)) {
    const inner = classify(error.cause);
    if (inner !== 'other') return inner;
  }
  return 'other';
}

/**
 * Types a database failure at the src/db boundary, whatever raised it (node-postgres, Prisma with the pg driver
 * adapter): the connection is refused, reset, terminated or timed out, the server is shutting down or starting
 * up, too many connections, a serialization failure → AppError `transient` `database_unavailable` (HTTP 503
 * with retry-after; queue jobs back off until the database is back). A data exception (SQLSTATE class 22, e.g.
 * a NUL byte in text) → `invalid_input` (400). Anything else (a constraint violation a repository handles, a
 * bug) is returned unchanged, as are AppErrors.
 */
export function mapDbError(error: unknown): unknown {
  if (isAppError(error)) return error;
  const verdict = classify(error);
  if (verdict === 'transient') return unavailable(error);
  if (verdict === 'invalid_value') {
    return new AppError('invalid_input', 'a value was refused by the database (text with a NUL byte, a malformed or out-of-range value)', { code: 'invalid_value', status: 400, cause: error });
  }
  return error;
}
