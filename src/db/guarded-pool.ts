import pg from 'pg';

/**
 * node-postgres reports a lost or unobtainable connection with a plain Error and no SQLSTATE ("Connection
 * terminated unexpectedly", "Client has encountered a connection error and is not queryable", "timeout exceeded
 * when trying to connect", ...). The pool built here marks such errors where they arise (by origin, not by their
 * text), so mapDbError can type them as transient wherever they surface, Prisma included: the driver adapter
 * rethrows errors it does not recognize as they are, and the mark is a property of the error object itself.
 */
const CONNECTION_FAILURE = Symbol.for('ci-replay.db.connection-failure');

type Callback = (error: unknown, ...rest: unknown[]) => void;
type Variadic = (...args: unknown[]) => unknown;

function mark(error: unknown): unknown {
  if (typeof error === 'object' && error !== null && !(error instanceof pg.DatabaseError)) {
    Object.defineProperty(error, CONNECTION_FAILURE, { value: true, enumerable: false });
  }
  return error;
}

/** Whether the pool marked this error as a connection failure (see above). */
export const isConnectionFailure = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[CONNECTION_FAILURE] === true;

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** Calls `original` and passes what it rejects with (or hands to its callback) through `map`. */
function guard(original: Variadic, map: (error: unknown) => unknown): Variadic {
  return (...args: unknown[]) => {
    const last = args.at(-1);
    if (typeof last === 'function') {
      const callback = last as Callback;
      return original(...args.slice(0, -1), (error: unknown, ...rest: unknown[]) => callback(error === null || error === undefined ? error : map(error), ...rest));
    }
    const result = original(...args);
    return isPromise(result) ? result.catch((error: unknown) => Promise.reject(map(error))) : result;
  };
}

/**
 * A client that marks query failures once its connection is gone (it emitted `error` or `end`, or is being
 * closed). Other failures (a value that cannot be serialized, a statement the server refused) stay unmarked.
 * Listening to `error` also keeps a connection lost while checked out from crashing the process.
 */
class GuardedClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    let lost = false;
    this.on('error', () => {
      lost = true;
    });
    this.on('end', () => {
      lost = true;
    });
    const end = this.end.bind(this) as Variadic;
    Object.assign(this, {
      query: guard(this.query.bind(this) as Variadic, (error) => (lost ? mark(error) : error)),
      end: (...args: unknown[]) => {
        lost = true;
        return end(...args);
      },
    });
  }
}

/**
 * The pool every query goes through (Prisma's driver adapter and the repositories' own statements). Acquiring a
 * connection fails only for connection reasons (refused, reset, timed out, server shutting down, pool closed);
 * those that carry no SQLSTATE are marked. Server errors keep their SQLSTATE and are typed by it.
 */
export function createGuardedPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({ ...config, Client: GuardedClient });
  Object.assign(pool, { connect: guard(pool.connect.bind(pool) as Variadic, mark) });
  return pool;
}
