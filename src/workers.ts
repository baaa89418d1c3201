import type { Deps } from './deps.js';
import type { PipelineDeps } from './pipeline/context.js';
import { archiveAndClassify } from './pipeline/archive-job-log.js';
import { finalizeSubmission } from './pipeline/finalize.js';
import { handleCiEvent } from './pipeline/handle-event.js';
import { prepareSubmission } from './pipeline/prepare.js';
import { reconcileSubmission } from './pipeline/reconcile.js';
import type { CiEvent } from './domain/ci-events.js';
import { createWorkerSet, QUEUE_NAMES, type Processors, type QueueName, type WorkerOutageOptions } from './queue/index.js';
import { endForDatabaseOutage } from './pipeline/database-outage.js';
import { createRedis } from './queue/index.js';
import { createWorkflowLinter } from './workflows/index.js';
import { revalidationTick, startRevalidation } from './revalidation/service.js';
import { instanceCheckGate } from './revalidation/pre-check.js';
import { createLeaseKeeper, type LeaseKeeper } from './pipeline/lease-keeper.js';
import { resumeExpiredLeases } from './pipeline/recover-leases.js';
import type { Payload } from './queue/index.js';
import { loadPoolFile } from './scheduler/index.js';

export interface Workers {
  queues: readonly QueueName[];
  /** This worker instance's leases (its owner id is in the lease columns of what it runs). */
  leases: LeaseKeeper;
  /**
   * Graceful stop: takes no new job; active jobs get SHUTDOWN_GRACE_MS to finish, then what is still running is
   * handed back (leases released, prepare jobs returned to the queue) within a few seconds; then the connections close.
   */
  close(): Promise<void>;
}

/** After the grace period, how long handing work back may take before the workers are closed by force. */
const HAND_BACK_MS = 10_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** The pipeline's dependencies, derived from the service's. */
export async function pipelineDeps(deps: Deps): Promise<PipelineDeps> {
  return {
    config: deps.config,
    logger: deps.logger,
    repos: deps.repos,
    queues: deps.queues,
    backend: deps.backend,
    mirrors: deps.mirrors,
    logStore: deps.logStore,
    linter: await createWorkflowLinter(),
    pool: deps.pool,
  };
}

/**
 * Jobs wait for an unavailable database (no attempt spent) up to DB_OUTAGE_DEADLINE_MINUTES; then the
 * submission they work for ends `infra_error` with reason `database_unavailable`, visibly. Scheduled maintenance
 * without a submission simply stops (the schedule runs it again); webhook deliveries keep waiting, since they
 * are recorded in Postgres and end nothing.
 */
function databaseOutagePolicy(deps: Deps): WorkerOutageOptions {
  const minutes = deps.config.worker.dbOutageDeadlineMinutes;
  const end = async (submissionId: string): Promise<void> => {
    await endForDatabaseOutage(deps.repos, submissionId, minutes);
  };
  return {
    deadlineMs: minutes * 60_000,
    giveUp: {
      prepare: ({ submissionId }) => end(submissionId),
      logs: ({ submissionId }) => end(submissionId),
      finalize: ({ submissionId }) => end(submissionId),
      maintenance: async ({ submissionId }) => {
        if (submissionId !== undefined) await end(submissionId);
      },
    },
  };
}

/** Builds the queue workers (does not block); the entrypoint handles signals and calls close(). */
export async function createWorkers(deps: Deps, options: { autorun?: boolean } = {}): Promise<Workers> {
  // ACCOUNT_POOL_FILE: its accounts are added to (or changed in) the BenchAccount table, as `ci-replay pool load` does.
  if (deps.config.accountPoolFile !== undefined) {
    const loaded = await loadPoolFile(deps.repos.benchAccounts, deps.config.accountPoolFile);
    deps.logger.info({ accounts: loaded.length, file: deps.config.accountPoolFile }, 'account pool loaded');
  }
  const leaseSeconds = deps.config.worker.leaseSeconds;
  const leases = createLeaseKeeper({ repos: deps.repos, seconds: leaseSeconds, logger: deps.logger });
  const pipeline = { ...(await pipelineDeps(deps)), leases };
  const connection = createRedis(deps.config.redisUrl, 'worker');
  const schedules: [string, number, Payload<'maintenance'>][] = [
    ['recover', deps.config.worker.recoveryIntervalSeconds * 1000, { task: 'recover' }],
    ['revalidate', deps.config.revalidation.tickSeconds * 1000, { task: 'revalidate' }],
    ['reconcile', 5 * 60_000, { task: 'reconcile' }],
  ];
  /**
   * The schedules live in Redis, which is a cache: a flush or a restart without persistence loses them, and the
   * recovery sweep cannot bring back its own schedule. So every worker process checks them at start, whenever its
   * Redis connection is ready again, at every recovery interval on a timer of its own, and at each sweep; a missing
   * one is registered again (its first run is immediate: the sweep re-creates the rest from Postgres).
   */
  const ensureSchedules = async (): Promise<void> => {
    for (const [id, everyMs, payload] of schedules) {
      const created = await deps.queues.ensureSchedule(id, everyMs, payload).catch((error: unknown) => {
        deps.logger.warn({ err: error, schedule: id }, 'could not check the schedule');
        return false;
      });
      if (created) deps.logger.warn({ schedule: id }, 'schedule missing from Redis: registered again');
    }
  };
  const processors: Processors = {
    prepare: ({ submissionId }, { logger }) => prepareSubmission(pipeline, submissionId, logger),
    events: async (payload, { logger }) => {
      if (payload.source === 'local') {
        await handleCiEvent(pipeline, payload.event as unknown as CiEvent, logger);
        return;
      }
      const ids = payload.source === 'deliveries' ? payload.deliveryIds : [payload.deliveryId];
      for (const deliveryId of ids) await deps.deliveries.process(deliveryId, pipeline, logger);
    },
    logs: ({ submissionId, jobRowId }, { logger }) => archiveAndClassify(pipeline, submissionId, jobRowId, logger),
    finalize: ({ submissionId }, { logger }) => finalizeSubmission(pipeline, submissionId, logger),
    maintenance: async (payload, { logger }) => {
      if (payload.task === 'recover') {
        await deps.submissions.recover();
        await resumeExpiredLeases(pipeline, logger);
        await deps.deliveries.sweep(pipeline, logger);
        await ensureSchedules();
        return;
      }
      const reconcile = deps.github?.reconcileSubmission ?? reconcileSubmission;
      if (payload.task === 'reconcile' && payload.submissionId !== undefined) {
        await reconcile(pipeline, payload.submissionId, logger);
        return;
      }
      if (payload.task === 'reconcile') {
        if (deps.github !== null) {
          await deps.github.redeliverFailed({ since: new Date(Date.now() - 3 * 3_600_000) }).catch((error: unknown) => logger.warn({ err: error }, 'redelivery failed'));
        }
        for (const stale of await deps.repos.submissions.findStale(['published', 'running'], new Date(Date.now() - 60_000), 200)) {
          await reconcile(pipeline, stale.id, logger);
        }
        // Account pool: slots of submissions that are over (or held past the run timeout) go back.
        if (await deps.pool.enabled()) await deps.pool.reconcile();
        return;
      }
      if (payload.task === 'revalidate' && payload.instanceId !== undefined) {
        await startRevalidation({ ...deps, logger }, payload.instanceId, deps.config.revalidation.repeats, { trigger: 'schedule' });
        return;
      }
      // Settles finished re-validations, opens due ones (REVALIDATE_INTERVAL_HOURS > 0) and creates replays within
      // REVALIDATE_MAX_CONCURRENT; all state is in Postgres, so a restarted worker picks up where it stopped.
      const interval = deps.config.revalidation.intervalHours;
      await revalidationTick({ ...deps, logger, preCheck: instanceCheckGate(pipeline, logger) }, { maxAgeMs: interval > 0 ? interval * 3_600_000 : null, limit: deps.config.revalidation.batch });
    },
  };
  const set = createWorkerSet({
    connection,
    prefix: deps.config.queuePrefix,
    concurrency: { prepare: deps.config.worker.concurrency, events: 4, logs: 2, finalize: 2, maintenance: 1 },
    processors,
    logger: deps.logger,
    outage: databaseOutagePolicy(deps),
    ...(options.autorun !== undefined ? { autorun: options.autorun } : {}),
    // A dead worker's jobs go back to the queue within a lease (BullMQ's default: 30 s lock, 30 s check).
    lockDurationMs: Math.min(30_000, leaseSeconds * 500),
    stalledIntervalMs: Math.min(30_000, leaseSeconds * 500),
  });
  for (const [id, everyMs, payload] of schedules) {
    await deps.queues.schedule(id, everyMs, payload).catch((error: unknown) => deps.logger.warn({ err: error, schedule: id }, 'could not register the schedule'));
  }
  const onReady = (): void => void ensureSchedules();
  connection.on('ready', onReady);
  const watchdog = setInterval(() => void ensureSchedules(), deps.config.worker.recoveryIntervalSeconds * 1000);
  watchdog.unref();
  return {
    queues: QUEUE_NAMES,
    leases,
    async close() {
      clearInterval(watchdog);
      connection.off('ready', onReady);
      const finished = set.close().then(() => true);
      if (!(await Promise.race([finished, sleep(deps.config.worker.shutdownGraceMs).then(() => false)]))) {
        deps.logger.warn({ held: leases.held() }, 'shutdown grace period over: handing the work still running back to the queue');
        leases.handBackAll();
        if (!(await Promise.race([finished, sleep(HAND_BACK_MS).then(() => false)]))) await set.close(true);
      }
      await leases.stop();
      connection.disconnect();
    },
  };
}
