import pg from 'pg';
import { transient } from '../errors.js';

/** SQLSTATE classes that describe a passing fault: connection, resources, operator intervention, serialization. */
const TRANSIENT_CLASSES = new Set(['08', '53', '57', '40']);

/**
 * Types a failure of a node-postgres query, by its class and SQLSTATE (never by message text). An error the
 * server reported (`pg.DatabaseError`) is transient when its SQLSTATE class is; anything else a query rejects
 * with comes from the connection (refused, reset, terminated, timed out, pool closed) and is transient.
 * Transient errors become an AppError (HTTP 503, retried by workers); others are returned unchanged.
 */
export function mapDbError(error: unknown): unknown {
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? '';
    return TRANSIENT_CLASSES.has(code.slice(0, 2)) ? transient('database_unavailable', 'the database is unavailable; try again', error) : error;
  }
  return transient('database_unavailable', 'the database is unavailable; try again', error);
}
