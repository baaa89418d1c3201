import type { Logger } from 'pino';
import type { CiBackend } from '../backends/ci-backend.js';
import type { Config } from '../config.js';
import type { Repositories } from '../db/index.js';
import type { MirrorCache } from '../git/index.js';
import type { Queues } from '../queue/index.js';
import type { LogStore } from '../storage/log-store.js';
import type { WorkflowLinter } from '../workflows/index.js';

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
}
