import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { mapDbError } from '../../../src/db/map-error.js';
import { isAppError } from '../../../src/errors.js';

const serverError = (code: string): pg.DatabaseError => Object.assign(new pg.DatabaseError('server said no', 0, 'error'), { code });

describe('mapDbError', () => {
  it('makes connection, resource, shutdown and serialization failures transient', () => {
    for (const code of ['08006', '53300', '57P01', '40001', '40P01']) {
      const mapped = mapDbError(serverError(code));
      expect(isAppError(mapped) && mapped.kind === 'transient' && mapped.code === 'database_unavailable', code).toBe(true);
    }
  });

  it('makes failures that never reached the server transient (refused, terminated, pool timeout)', () => {
    for (const error of [Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), new Error('Connection terminated unexpectedly'), new Error('timeout exceeded when trying to connect')]) {
      const mapped = mapDbError(error);
      expect(isAppError(mapped) && mapped.kind === 'transient').toBe(true);
    }
  });

  it('leaves errors the server reported about the statement or the data unchanged', () => {
    for (const code of ['23505', '22003', '42P01', '22P02']) {
      const error = serverError(code);
      expect(mapDbError(error)).toBe(error);
    }
  });
});
