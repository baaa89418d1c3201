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
import { revalidateDue, settleRevalidations, startRevalidation } from './revalidation/service.js';

export interface Workers {
  queues: readonly QueueName[];
  close(): Promise<void>;
}

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
  const pipeline = await pipelineDeps(deps);
  const connection = createRedis(deps.config.redisUrl, 'worker');
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
        await deps.deliveries.sweep(pipeline, logger);
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
        return;
      }
      if (payload.task === 'revalidate' && payload.instanceId !== undefined) {
        await startRevalidation({ ...deps, logger }, payload.instanceId, deps.config.revalidation.repeats);
        return;
      }
      if (deps.config.revalidation.intervalHours > 0) {
        await revalidateDue({ ...deps, logger }, { maxAgeMs: deps.config.revalidation.intervalHours * 3_600_000, limit: deps.config.revalidation.batch, repeats: deps.config.revalidation.repeats });
      } else {
        await settleRevalidations({ ...deps, logger });
      }
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
  });
  await deps.queues.schedule('recover', deps.config.worker.recoveryIntervalSeconds * 1000, { task: 'recover' }).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not schedule recovery'));
  await deps.queues.schedule('revalidate', 60_000, { task: 'revalidate' }).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not schedule revalidation'));
  await deps.queues.schedule('reconcile', 5 * 60_000, { task: 'reconcile' }).catch((error: unknown) => deps.logger.warn({ err: error }, 'could not schedule reconcile'));
  return {
    queues: QUEUE_NAMES,
    async close() {
      await set.close();
      connection.disconnect();
    },
  };
}
