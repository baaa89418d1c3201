import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createDb, createRepositories, migrationStatus, pingDb, type DbClient, type Repositories } from './db/index.js';
import { createLogger } from './logger.js';
import { migrationsDir } from './paths.js';
import { createQueues, createRedis, pingRedis, type Queues, type RedisConnection } from './queue/index.js';
import { createSubmissionService, type SubmissionService } from './submissions/service.js';
import type { ReadinessCheck, RouteRegistrar } from './http/app.js';
import type { CiBackend } from './backends/ci-backend.js';
import { createLocalBackend } from './backends/local/index.js';
import { createMirrorCache, type MirrorCache } from './git/index.js';
import { createDeliveryProcessor, type DeliveryProcessor } from './pipeline/deliveries.js';
import { createFileLogStore, type LogStore } from './storage/log-store.js';
import { join } from 'node:path';
import { resultRoutes } from './http/routes/results.js';
import { reportRoutes } from './http/routes/reports.js';
import { sweepRoutes } from './http/routes/sweep.js';
import { instanceCheckRoutes } from './http/routes/instances-check.js';
import { trackRoutes } from './http/routes/tracks.js';
import { dashboardRoutes } from './http/dashboard/index.js';
import { createTrackService } from './tracks/index.js';
import { createGithubParts, type GithubParts } from './backends/github/parts.js';
import { createPipelinePool, type PipelinePool } from './scheduler/index.js';
import { poolRoutes } from './http/routes/pool.js';

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
  backend: CiBackend;
  mirrors: MirrorCache;
  logStore: LogStore;
  deliveries: DeliveryProcessor;
  /** Route groups beyond the core API (webhook intake, reports, log segments). */
  routes: RouteRegistrar[];
  /** The GitHub App parts when CI_BACKEND=github (webhook intake, reconciler, repos sync), else null. */
  github: GithubParts | null;
  /** The account pool's scheduler (docs/account-pool.md): used only when the BenchAccount table has accounts. */
  pool: PipelinePool;
  close(): Promise<void>;
}

export interface DepsOverrides {
  logger?: Logger;
  /** Postgres schema (tests isolate themselves in their own schema). */
  dbSchema?: string;
  /** Replaces the CI backend chosen by CI_BACKEND (tests; the GitHub backend's composition). */
  backend?: (parts: { repos: Repositories; logger: Logger }) => CiBackend;
  /** Extra environment for local executor steps (tests put tool shims on PATH). */
  stepEnv?: Record<string, string>;
  /** GitHub client tuning (tests: shorter retry waits and fork waits). */
  githubTuning?: { retryAfterBaseMs?: number; writeIntervalMs?: number; forkWaitMs?: number; retries?: number };
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
  const submissions = createSubmissionService({
    repos,
    queues,
    logger,
    patchMaxBytes: config.limits.patchMaxBytes,
    leaseSeconds: config.worker.leaseSeconds,
    maxResumes: config.worker.maxResumes,
    // Cancelling a run nobody runs any more kills what is left of it (the backend is built below).
    abandonRun: async (ref) => backend.abandonRun?.(ref),
    // … and a cancelled GitHub submission's workflow runs and check run.
    cancelSubmission: async (ref) => backend.cancelSubmission?.(ref),
  });
  const readiness: Record<string, ReadinessCheck> = {
    postgres: () => pingDb(db),
    redis: () => pingRedis(redis),
    migrations: async () => {
      const status = await migrationStatus(db.pool, migrationsDir());
      if (!status.current) throw new Error(`pending migrations: ${status.pending.join(', ')} (run \`ci-replay migrate\`)`);
      return `${status.applied.length} applied`;
    },
  };
  const logStore = createFileLogStore(join(config.dataDir, 'archive'));
  const github =
    config.ciBackend === 'github' && config.github !== undefined
      ? createGithubParts(config.github, {
          repos,
          queues,
          logger,
          publicUrl: config.publicUrl,
          redisUrl: config.redisUrl,
          queuePrefix: config.queuePrefix,
          ...(overrides.githubTuning !== undefined ? { tuning: overrides.githubTuning } : {}),
        })
      : null;
  const backend =
    overrides.backend?.({ repos, logger }) ??
    github?.backend ??
    createLocalBackend({
      dataDir: config.dataDir,
      benchRepos: repos.benchRepos,
      logger,
      maxParallelJobs: config.executor.maxParallelJobs,
      outputCapBytes: config.executor.outputCapBytes,
      sandbox: config.executor.sandbox,
      secretValues: config.executor.secretValues,
      actions: config.executor.actions,
      container: config.executor.container,
      ...(overrides.stepEnv !== undefined ? { stepEnv: overrides.stepEnv } : {}),
    });
  const mirrors = createMirrorCache({ dataDir: config.dataDir, logger });
  // Slots held past the run timeout (plus grace) are taken back by the reconcile schedule.
  const pool = createPipelinePool({ repos, redis, prefix: config.queuePrefix, queues, logger, holdMs: (config.pipeline.runTimeoutMinutes + 30) * 60_000 });
  const tracks = createTrackService({ repos, mirrors, queues, logger, patchMaxBytes: config.limits.patchMaxBytes, maxRounds: config.tracks.maxRounds });
  return {
    config,
    logger,
    db,
    repos,
    redis,
    queues,
    submissions,
    readiness,
    backend,
    mirrors,
    logStore,
    deliveries: createDeliveryProcessor(github?.deliveryHooks ?? []),
    routes: [resultRoutes(logStore), reportRoutes, trackRoutes(tracks), sweepRoutes({ repos, mirrors, queues, logger }), instanceCheckRoutes({ config, repos, mirrors, backend, logger }), ...(github?.routes ?? []), dashboardRoutes({ config, redis }), poolRoutes(pool)],
    github,
    pool,
    async close() {
      await github?.close();
      await queues.close().catch(() => undefined);
      redis.disconnect();
      await db.close();
    },
  };
}
