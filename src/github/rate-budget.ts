/**
 * A rate-limit budget shared by every process that talks to GitHub with the same App.
 *
 * Kept deliberately simple: after each response the client records the installation's remaining quota; when it
 * falls under `reserve`, or GitHub answers with a secondary limit / 429, the key is paused until the reset time
 * (or `retry-after`). Before each request every process reads the pause and waits it out. With Redis the pause is
 * one key per installation (`<prefix>:github-rate:<key>` = epoch ms, expiring with it), so all workers share it;
 * without Redis it lives in this process only.
 */
export interface RateBudget {
  /** Resolves when requests under `key` may go out (waits out a recorded pause, capped at maxWaitMs). */
  waitTurn(key: string): Promise<void>;
  /** Records a response's rate-limit headers. */
  observe(key: string, headers: Record<string, string | number | undefined>): Promise<void>;
  /** Pauses every request under `key` for `ms`. */
  pause(key: string, ms: number): Promise<void>;
}

export interface RedisLike {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: 'PX', ms: number): Promise<unknown>;
}

export interface RateBudgetOptions {
  /** Remaining requests under which the client stops until the reset (default 50). */
  reserve?: number;
  /** Longest single wait (default 60 s); a longer pause surfaces as a rate_limited error from GitHub instead. */
  maxWaitMs?: number;
}

interface Store {
  read(key: string): Promise<number>;
  write(key: string, until: number): Promise<void>;
}

function budgetOver(store: Store, options: RateBudgetOptions): RateBudget {
  const reserve = options.reserve ?? 50;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  return {
    async waitTurn(key) {
      const until = await store.read(key);
      const wait = Math.min(until - Date.now(), maxWaitMs);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    },
    async observe(key, headers) {
      const remaining = Number(headers['x-ratelimit-remaining']);
      const reset = Number(headers['x-ratelimit-reset']);
      if (!Number.isFinite(remaining) || !Number.isFinite(reset) || remaining >= reserve) return;
      await store.write(key, reset * 1000);
    },
    async pause(key, ms) {
      await store.write(key, Date.now() + ms);
    },
  };
}

export function createMemoryRateBudget(options: RateBudgetOptions = {}): RateBudget {
  const pauses = new Map<string, number>();
  return budgetOver(
    {
      read: async (key) => pauses.get(key) ?? 0,
      write: async (key, until) => {
        if (until > (pauses.get(key) ?? 0)) pauses.set(key, until);
      },
    },
    options,
  );
}

export function createRedisRateBudget(redis: RedisLike, prefix: string, options: RateBudgetOptions = {}): RateBudget {
  const name = (key: string): string => `${prefix}:github-rate:${key}`;
  return budgetOver(
    {
      async read(key) {
        try {
          return Number((await redis.get(name(key))) ?? 0);
        } catch {
          return 0;
        }
      },
      async write(key, until) {
        const ttl = until - Date.now();
        if (ttl <= 0) return;
        await redis.set(name(key), String(until), 'PX', ttl).catch(() => undefined);
      },
    },
    options,
  );
}
