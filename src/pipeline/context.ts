import type { Logger } from 'pino';
import type { CiBackend } from '../backends/ci-backend.js';
import type { Config } from '../config.js';
import type { Repositories } from '../db/index.js';
import type { MirrorCache } from '../git/index.js';
import type { Queues } from '../queue/index.js';
import type { LogStore } from '../storage/log-store.js';
import type { WorkflowLinter } from '../workflows/index.js';
import type { PipelinePool } from '../scheduler/index.js';
import type { LeaseKeeper } from './lease-keeper.js';

/** What the pipeline steps need; built once by the composition root. */
export interface PipelineDeps {
  config: Pick<Config, 'publicUrl' | 'pipeline' | 'standardize' | 'dataDir' | 'worker'>;
  logger: Logger;
  repos: Repositories;
  queues: Queues;
  backend: CiBackend;
  mirrors: MirrorCache;
  logStore: LogStore;
  linter: WorkflowLinter;
  /**
   * This process's leases on the submissions it works on (workers and `ci-replay run-local`): the prepare step runs
   * under one. Absent (tests calling a step directly), prepare works without a lease.
   */
  leases?: LeaseKeeper;
  /** The account pool's scheduler (docs/account-pool.md); absent or an empty pool: the single-account path. */
  pool?: PipelinePool;
}
