import { randomUUID } from 'node:crypto';

/**
 * A rate-limit budget shared by every process that talks to GitHub with the same App.
 *
 * Two mechanisms, both per key (one key per installation):
 * - **After the fact**: after each response the client records the installation's remaining quota; when it falls
 *   under `reserve`, or GitHub answers with a secondary limit / 429, the key is paused until the reset time (or
 *   `retry-after`). Before each request every process reads the pause and waits it out. With Redis the pause is one
 *   key per installation (`<prefix>:github-rate:<key>` = epoch ms, expiring with it).
 * - **Counted ahead** (`take`, issue 19): an account of the pool has its own budget (`restPerHour`,
 *   `writesPerMinute`). Every request sent with the installation is reserved first in a sliding-window log (Redis
 *   sorted sets `<prefix>:github-rate:<key>:rest` and `:writes`, one Lua script, Redis' clock), so across all worker
 *   processes no window of an hour holds more than `restPerHour` requests nor any minute more than
 *   `writesPerMinute` content-creating ones; a request that would exceed either waits until the oldest leaves.
 * Without Redis both live in this process only. A Redis failure never blocks a request (fail open: GitHub's headers
 * still pause the key).
 */
/** How long past a pause's end a waiting request goes out (clock and TTL rounding between Node and Redis). */
const PAST_PAUSE_MS = 5;

export interface RateBudget {
  /** Resolves when requests under `key` may go out (waits out a recorded pause, capped at maxWaitMs). */
  waitTurn(key: string): Promise<void>;
  /** Records a response's rate-limit headers. */
  observe(key: string, headers: Record<string, string | number | undefined>): Promise<void>;
  /** Pauses every request under `key` for `ms`. */
  pause(key: string, ms: number): Promise<void>;
  /**
   * Reserves one request under `key` within `limits`, waiting while a window is full (each wait capped at
   * maxWaitMs). Resolves 0 once reserved, or the wait still needed (> maxWaitMs, nothing reserved).
   */
  take(key: string, request: { write: boolean }, limits: BudgetLimits): Promise<number>;
}

/** An account's own budget (PoolAccount.restPerHour / writesPerMinute); an absent limit is not counted. */
export interface BudgetLimits {
  restPerHour?: number;
  writesPerMinute?: number;
}

/** Window lengths (GitHub's: an hour and a minute); tests shorten them, as the simulator's limits allow. */
export interface BudgetWindows {
  restMs: number;
  writeMs: number;
  /**
   * Added to each window (default 1 s): a request is counted when reserved but GitHub counts it on arrival, a few
   * milliseconds later; the slack keeps a request reserved just after the window's oldest one left from arriving
   * before it left at GitHub.
   */
  slackMs: number;
}

export const GITHUB_WINDOWS: BudgetWindows = { restMs: 3_600_000, writeMs: 60_000, slackMs: 1000 };

export interface RedisLike {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: 'PX', ms: number): Promise<unknown>;
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

/**
 * KEYS: the rest log, the writes log. ARGV: rest limit, rest window ms, writes limit, writes window ms (limit -1:
 * not counted), a unique member. Returns 0 when reserved in every counted log, else the ms until the fullest frees.
 */
const RESERVE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait = 0
for i = 1, 2 do
  local limit = tonumber(ARGV[i * 2 - 1])
  if limit >= 0 then
    local window = tonumber(ARGV[i * 2])
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
    local count = redis.call('ZCARD', KEYS[i])
    if count >= limit then
      local oldest = redis.call('ZRANGE', KEYS[i], count - limit, count - limit, 'WITHSCORES')
      local free = tonumber(oldest[2] or now) + window - now + 1
      if free > wait then wait = free end
    end
  end
end
if wait > 0 then return wait end
for i = 1, 2 do
  if tonumber(ARGV[i * 2 - 1]) >= 0 then
    redis.call('ZADD', KEYS[i], now, now .. ':' .. ARGV[5])
    redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[i * 2]))
  end
end
return 0
`;

export interface RateBudgetOptions {
  /** Remaining requests under which the client stops until the reset (default 50). */
  reserve?: number;
  /** Longest single wait (default 60 s); a longer pause surfaces as a rate_limited error from GitHub instead. */
  maxWaitMs?: number;
  /** Window lengths of the counted-ahead budget (default GITHUB_WINDOWS). */
  windows?: Partial<BudgetWindows>;
}

/** One reservation: the window (ms, slack included) and limit of each log it goes into. */
interface Reservation {
  rest: { limit: number; windowMs: number } | null;
  writes: { limit: number; windowMs: number } | null;
}

interface Store {
  read(key: string): Promise<number>;
  write(key: string, until: number): Promise<void>;
  /** Reserves in every log of `reservation` or in none; 0 when reserved, else ms until the fullest frees. */
  reserve(key: string, reservation: Reservation): Promise<number>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function budgetOver(store: Store, options: RateBudgetOptions): RateBudget {
  const reserve = options.reserve ?? 50;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const windows = { ...GITHUB_WINDOWS, ...options.windows };
  return {
    async take(key, request, limits) {
      const reservation: Reservation = {
        rest: limits.restPerHour === undefined ? null : { limit: limits.restPerHour, windowMs: windows.restMs + windows.slackMs },
        writes: !request.write || limits.writesPerMinute === undefined ? null : { limit: limits.writesPerMinute, windowMs: windows.writeMs + windows.slackMs },
      };
      if (reservation.rest === null && reservation.writes === null) return 0;
      for (;;) {
        const wait = await store.reserve(key, reservation);
        if (wait <= 0) return 0;
        if (wait > maxWaitMs) return wait;
        await sleep(wait);
      }
    },
    async waitTurn(key) {
      const until = await store.read(key);
      const wait = Math.min(until - Date.now(), maxWaitMs);
      // A few ms past the pause: the shared key (its TTL set by Redis when written) has expired too by then, so the
      // next caller does not read a pause that is over by this process's clock but not yet by Redis'.
      if (wait > 0) await sleep(wait + PAST_PAUSE_MS);
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
  const logs = new Map<string, number[]>();
  const waitIn = (name: string, window: { limit: number; windowMs: number } | null, now: number): number => {
    if (window === null) return 0;
    const log = (logs.get(name) ?? []).filter((at) => at > now - window.windowMs);
    logs.set(name, log);
    if (log.length < window.limit) return 0;
    return (log[log.length - window.limit] ?? now) + window.windowMs - now + 1;
  };
  return budgetOver(
    {
      read: async (key) => pauses.get(key) ?? 0,
      write: async (key, until) => {
        if (until > (pauses.get(key) ?? 0)) pauses.set(key, until);
      },
      reserve: async (key, reservation) => {
        const now = Date.now();
        const wait = Math.max(waitIn(`${key}:rest`, reservation.rest, now), waitIn(`${key}:writes`, reservation.writes, now));
        if (wait > 0) return wait;
        if (reservation.rest !== null) logs.get(`${key}:rest`)?.push(now);
        if (reservation.writes !== null) logs.get(`${key}:writes`)?.push(now);
        return 0;
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
      async reserve(key, reservation) {
        const args = [reservation.rest?.limit ?? -1, reservation.rest?.windowMs ?? 0, reservation.writes?.limit ?? -1, reservation.writes?.windowMs ?? 0, randomUUID()];
        try {
          return Number(await redis.eval(RESERVE_SCRIPT, 2, `${name(key)}:rest`, `${name(key)}:writes`, ...args));
        } catch {
          return 0;
        }
      },
    },
    options,
  );
}
