import { mapDbError } from './map-error.js';

type Method = (...args: unknown[]) => unknown;

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** Wraps one repository method: whatever it throws or rejects with goes through mapDbError. */
function guardMethod(method: Method, self: object): Method {
  return (...args: unknown[]) => {
    let result: unknown;
    try {
      result = method.apply(self, args);
    } catch (error) {
      throw mapDbError(error);
    }
    return isPromise(result) ? result.catch((error: unknown) => Promise.reject(mapDbError(error))) : result;
  };
}

/**
 * The one place database failures are typed: every method of every repository is wrapped, so no call path
 * (Prisma queries, interactive transactions, the repositories' own pg statements) reaches a caller with an
 * untyped connection error. Repositories are plain objects of methods; other properties are kept as they are.
 */
export function guardRepository<T extends object>(repository: T): T {
  const guarded: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(repository)) guarded[name] = typeof value === 'function' ? guardMethod(value as Method, repository) : value;
  return guarded as T;
}

/** Guards every repository of a set (see guardRepository). */
export function guardRepositories<T extends Record<string, object>>(repositories: T): T {
  return Object.fromEntries(Object.entries(repositories).map(([name, repository]) => [name, guardRepository(repository)])) as T;
}
