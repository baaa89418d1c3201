import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { Prisma } from '../../../src/db/generated/client.js';
import { guardRepository } from '../../../src/db/guard-repositories.js';
import { mapDbError } from '../../../src/db/map-error.js';
import { isAppError, notFound } from '../../../src/errors.js';

const serverError = (code: string, message = 'server said no'): pg.DatabaseError => Object.assign(new pg.DatabaseError(message, 0, 'error'), { code });
const socketError = (code: string): Error => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -111, syscall: 'connect', address: '127.0.0.1', port: 5432 });
/** What Prisma (driver adapter pg) throws, as observed against a stopped server and a terminated connection. */
const prismaKnown = (code: string, cause?: Record<string, unknown>): Prisma.PrismaClientKnownRequestError =>
  new Prisma.PrismaClientKnownRequestError(`Invalid invocation: ${code}`, {
    code,
    clientVersion: '7.10.0',
    ...(cause === undefined ? {} : { meta: { modelName: 'Run', driverAdapterError: { name: 'DriverAdapterError', cause } } }),
  });

const isUnavailable = (error: unknown): boolean => isAppError(error) && error.kind === 'transient' && error.code === 'database_unavailable' && error.status === 503 && error.retryAfterMs !== undefined;

describe('mapDbError', () => {
  it('makes connection, resource, shutdown, start-up and serialization failures reported by the server transient', () => {
    for (const code of ['08006', '08001', '08P01', '53300', '53100', '57P01', '57P02', '57P03', '40001', '40P01']) {
      expect(isUnavailable(mapDbError(serverError(code))), code).toBe(true);
    }
  });

  it('makes socket failures transient, with or without a SQLSTATE', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']) {
      expect(isUnavailable(mapDbError(socketError(code))), code).toBe(true);
    }
  });

  it('makes Prisma connection failures transient: P1001/P1002/P1017/P2024, the adapter’s kinds, and a SQLSTATE inside a raw query error', () => {
    const cases = [
      prismaKnown('P1001', { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 }),
      prismaKnown('P1001'),
      prismaKnown('P1002'),
      prismaKnown('P1017', { kind: 'ConnectionClosed' }),
      prismaKnown('P2024'),
      prismaKnown('P2037', { kind: 'TooManyConnections', cause: 'sorry, too many clients already' }),
      prismaKnown('P2010', { kind: 'postgres', code: '57P01', originalCode: '57P01', severity: 'FATAL', message: 'terminating connection due to administrator command' }),
      prismaKnown('P2010', { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 }),
      prismaKnown('P2034', { kind: 'TransactionWriteConflict' }),
      new Prisma.PrismaClientInitializationError("Can't reach database server at 127.0.0.1:5432", '7.10.0', 'P1001'),
    ];
    for (const error of cases) expect(isUnavailable(mapDbError(error)), error.message).toBe(true);
  });

  it('types data exceptions (a NUL byte in text, a malformed value) as invalid input (400), not a 500', () => {
    for (const error of [
      serverError('22021', 'invalid byte sequence for encoding "UTF8": 0x00'),
      prismaKnown('P2039', { kind: 'postgres', code: '22P05', originalCode: '22P05', severity: 'ERROR', message: 'unsupported Unicode escape sequence' }),
    ]) {
      const mapped = mapDbError(error);
      expect(isAppError(mapped) && mapped.kind === 'invalid_input' && mapped.status === 400 && mapped.code === 'invalid_value').toBe(true);
    }
  });

  it('leaves other failures unchanged: constraint violations, missing tables, wrong credentials, bugs, AppErrors', () => {
    const unchanged: unknown[] = [
      serverError('23505'),
      serverError('42P01'),
      serverError('28P01'),
      prismaKnown('P2002', { kind: 'UniqueConstraintViolation' }),
      prismaKnown('P2025'),
      new Prisma.PrismaClientInitializationError('Authentication failed', '7.10.0', 'P1000'),
      new TypeError('Cannot read properties of undefined'),
      // A plain error without the pool's connection-failure mark is not guessed from its text.
      new Error('Connection terminated unexpectedly'),
      notFound('run', 'x'),
    ];
    for (const error of unchanged) expect(mapDbError(error)).toBe(error);
  });
});

describe('guardRepository', () => {
  it('types what every method throws or rejects with, and passes results through', async () => {
    const repository = guardRepository({
      ok: async (value: number) => value * 2,
      down: async () => {
        throw socketError('ECONNREFUSED');
      },
      syncThrow: () => {
        throw prismaKnown('P1001');
      },
      bug: async () => {
        throw new TypeError('bug');
      },
    });
    expect(await repository.ok(21)).toBe(42);
    await expect(repository.down()).rejects.toMatchObject({ kind: 'transient', code: 'database_unavailable' });
    expect(() => repository.syncThrow()).toThrow(expect.objectContaining({ code: 'database_unavailable' }));
    await expect(repository.bug()).rejects.toBeInstanceOf(TypeError);
  });
});
