import { Redis, type RedisOptions } from 'ioredis';

export type RedisConnection = Redis;

/**
 * Workers need `maxRetriesPerRequest: null` (BullMQ blocks on Redis); producers in the API fail fast instead,
 * so an unreachable Redis answers within a second and the recovery sweep enqueues later.
 */
export function createRedis(url: string, role: 'worker' | 'producer'): Redis {
  const options: RedisOptions =
    role === 'worker'
      ? { maxRetriesPerRequest: null, enableReadyCheck: false }
      : { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000, retryStrategy: (times) => Math.min(times * 200, 2000) };
  const redis = new Redis(url, { lazyConnect: false, ...options });
  redis.on('error', () => undefined);
  return redis;
}

/** Pings Redis, waiting up to `timeoutMs` for a connection still being established. */
export async function pingRedis(redis: Redis, timeoutMs = 2000): Promise<void> {
  if (redis.status !== 'ready') {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        reject(new Error(`Redis not reachable within ${timeoutMs} ms`));
      }, timeoutMs);
      const onReady = (): void => {
        clearTimeout(timer);
        resolve();
      };
      redis.once('ready', onReady);
    });
  }
  await redis.ping();
}
