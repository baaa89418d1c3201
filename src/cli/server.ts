import closeWithGrace from 'close-with-grace';
import { buildApp } from '../http/app.js';
import type { Deps } from '../deps.js';
import { createWorkers } from '../workers.js';
import { ensureDatabase, migrate } from '../db/index.js';
import { migrationsDir } from '../paths.js';

/** `ci-replay serve`: the HTTP API; listens and handles signals. */
export async function serve(deps: Deps): Promise<void> {
  const app = await buildApp({ ...deps, extraRoutes: deps.routes });
  await app.listen({ host: deps.config.host, port: deps.config.port });
  closeWithGrace({ delay: deps.config.worker.shutdownGraceMs }, async ({ signal, err }) => {
    if (err !== undefined) deps.logger.error({ err }, 'shutting down after an error');
    else deps.logger.info({ signal }, 'shutting down');
    await app.close();
    await deps.close();
  });
}

/**
 * `ci-replay worker`: the queue workers and the recovery schedule. On SIGTERM/SIGINT it takes no new job, lets
 * active jobs finish within SHUTDOWN_GRACE_MS, hands back what still runs (leases released, prepare jobs returned to
 * the queue), closes its connections and exits 0; past a further 20 s it exits 1 regardless.
 */
export async function work(deps: Deps): Promise<void> {
  const workers = await createWorkers(deps);
  deps.logger.info({ queues: workers.queues, owner: workers.leases.owner }, 'workers started');
  closeWithGrace({ delay: deps.config.worker.shutdownGraceMs + 20_000 }, async ({ signal, err }) => {
    if (err !== undefined) deps.logger.error({ err }, 'shutting down after an error');
    else deps.logger.info({ signal, graceMs: deps.config.worker.shutdownGraceMs }, 'finishing active jobs');
    await workers.close();
    await deps.close();
    deps.logger.info({}, 'worker stopped');
  });
}

/** `ci-replay migrate`: applies pending migrations. */
export async function runMigrations(deps: Deps): Promise<string[]> {
  if (await ensureDatabase(deps.config.databaseUrl)) deps.logger.info({}, 'created the database');
  return migrate({ pool: deps.db.pool, dir: migrationsDir(), logger: deps.logger });
}
