import type { ActionSettings } from '../executor/actions/types.js';
import type { ContainerSettings } from '../executor/container/settings.js';
import type { SandboxSettings } from '../executor/sandbox/settings.js';
import type { FaultStep } from './env-schema.js';

export interface GithubAppConfig {
  appId: string;
  privateKey: string;
  webhookSecret: string;
  apiUrl: string;
  gitUrl: string;
  benchOwner: string;
  repoMode: 'fork' | 'mirror';
}

export interface Config {
  env: 'development' | 'production' | 'test';
  logLevel: string;
  /** NO_COLOR is set: the CLI prints no colours, even on a terminal. */
  noColor: boolean;
  host: string;
  port: number;
  publicUrl: string;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  ciBackend: 'local' | 'github';
  dataDir: string;
  github: GithubAppConfig | undefined;
  webhookSecret: string | undefined;
  limits: { patchMaxBytes: number; bodyLimitBytes: number };
  /**
   * dbOutageDeadlineMinutes: how long a queue job waits for an unavailable database before its submission ends infra_error.
   * leaseSeconds: how long a worker's lease on a submission lasts unless renewed (renewed every third of it);
   * maxResumes: resumes after a dead worker before the submission ends infra_error (runner_lost);
   * faultPauseAt: tests only, the step where the worker stops and waits to be killed.
   */
  worker: {
    concurrency: number;
    shutdownGraceMs: number;
    recoveryIntervalSeconds: number;
    dbOutageDeadlineMinutes: number;
    leaseSeconds: number;
    maxResumes: number;
    faultPauseAt?: FaultStep | undefined;
  };
  executor: {
    maxParallelJobs: number;
    outputCapBytes: number;
    /** The step sandbox of the local executor (README: "Isolation model"). */
    sandbox: SandboxSettings;
    /** Jobs in containers (LOCAL_RUNTIME, LOCAL_RUNNER_IMAGE, LOCAL_NETWORK, …: docs/local-containers.md). */
    container: ContainerSettings;
    /** How `ci-replay images build` builds runner images: Debian mirror, .deb cache, scratch directory. */
    images: { mirror: string; cacheDir: string; workDir: string };
    /** The service's secrets, masked in every job log: passwords of DATABASE_URL / REDIS_URL / PIN_INDEX_URL, the App key and webhook secret. */
    secretValues: string[];
    /** Marketplace actions: ACTIONS_BASE_URL, ACTIONS_TOKEN, LOCAL_ACTIONS, cached in DATA_DIR/actions (docs/local-actions.md). */
    actions: ActionSettings;
  };
  pipeline: { noRunGraceSeconds: number; runTimeoutMinutes: number; reconcileTurnSeconds: number };
  /** ACCOUNT_POOL_FILE: benchmark accounts loaded into the BenchAccount table at worker start (docs/account-pool.md). */
  accountPoolFile?: string;
  /** Scheduled re-validation: every instance replayed (baseline must fail, ground truth must pass) `repeats` times. */
  revalidation: {
    intervalHours: number;
    repeats: number;
    batch: number;
    /** At most this many re-validation replays not finished at once (the budget). */
    maxConcurrent: number;
    /** How often the re-validation scheduler runs (settle, start due instances, dispatch replays). */
    tickSeconds: number;
    /** BullMQ priority of re-validation prepare jobs: interactive submissions (no priority) go first. */
    priority: number;
  };
  /** SWE-CI multi-round tracks: most rounds a track accepts. */
  tracks: { maxRounds: number };
  /**
   * The dashboard (/ui): sessionSecret signs the session cookie (undefined: a random secret per process, so sessions
   * end when the API restarts and are not shared between API processes); sessionHours: how long a login lasts.
   */
  ui: { sessionSecret: string | undefined; sessionHours: number };
  standardize: {
    matrixStrategy: 'first' | 'newest-python' | 'from-logs';
    pinDependencies: boolean;
    pinIndexUrl: string | undefined;
  };
}
