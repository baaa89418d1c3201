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

export async function pingRedis(redis: Redis): Promise<void> {
  await redis.ping();
}
