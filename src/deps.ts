import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createDb, createRepositories, migrationStatus, pingDb, type DbClient, type Repositories } from './db/index.js';
import { createLogger } from './logger.js';
import { migrationsDir } from './paths.js';
import { createQueues, createRedis, pingRedis, type Queues, type RedisConnection } from './queue/index.js';
import { createSubmissionService, type SubmissionService } from './submissions/service.js';
import type { ReadinessCheck } from './http/app.js';

/** Everything the service's parts need, built once by the composition root and passed down explicitly. */
export interface Deps {
  config: Config;
  logger: Logger;
  db: DbClient;
  repos: Repositories;
  redis: RedisConnection;
  queues: Queues;
  submissions: SubmissionService;
  readiness: Record<string, ReadinessCheck>;
  close(): Promise<void>;
}

export interface DepsOverrides {
  logger?: Logger;
  /** Postgres schema (tests isolate themselves in their own schema). */
  dbSchema?: string;
}

export function createDeps(config: Config, overrides: DepsOverrides = {}): Deps {
  const logger = overrides.logger ?? createLogger({ level: config.logLevel });
  const db = createDb({ url: config.databaseUrl, logger, ...(overrides.dbSchema !== undefined ? { schema: overrides.dbSchema } : {}) });
  const repos = createRepositories(db);
  const redis = createRedis(config.redisUrl, 'producer');
  const queues = createQueues({
    connection: redis,
    prefix: config.queuePrefix,
    timeoutMs: 3000,
    onError: (error) => logger.warn({ err: error }, 'queue connection error'),
  });
  const submissions = createSubmissionService({ repos, queues, logger, patchMaxBytes: config.limits.patchMaxBytes });
  const readiness: Record<string, ReadinessCheck> = {
    postgres: () => pingDb(db),
    redis: () => pingRedis(redis),
    migrations: async () => {
      const status = await migrationStatus(db.pool, migrationsDir());
      if (!status.current) throw new Error(`pending migrations: ${status.pending.join(', ')} (run \`ci-replay migrate\`)`);
      return `${status.applied.length} applied`;
    },
  };
  return {
    config,
    logger,
    db,
    repos,
    redis,
    queues,
    submissions,
    readiness,
    async close() {
      await queues.close().catch(() => undefined);
      redis.disconnect();
      await db.close();
    },
  };
}
