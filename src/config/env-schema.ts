import { z } from 'zod';

/**
 * The environment's schema: every variable, its default and its check (documented in .env.example and the README).
 * Read only by src/config.ts, the one reader of the environment.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const positiveInt = z.coerce.number().int().positive();

/**
 * Pipeline steps where a test can make a worker stop and wait (FAULT_PAUSE_AT, NODE_ENV=test only) so that it can
 * be killed there: `queued` (the prepare job holds the lease, the state is still queued), `preparing`, `after-push`
 * (pushed, publication not recorded), `running` (the local run is executing), `archiving` (a failed job's log),
 * `finalizing` (before the verdict is written).
 */
export const FAULT_STEPS = ['queued', 'preparing', 'after-push', 'running', 'archiving', 'finalizing'] as const;
export type FaultStep = (typeof FAULT_STEPS)[number];

/** Whether a connection URL parses (a malformed one would only fail later, deep in a driver, and be logged there). */
const parsableUrl = (value: string): boolean => URL.canParse(value);

const portList = z
  .string()
  .transform((value) => value.split(',').map((p) => p.trim()).filter((p) => p !== ''))
  .pipe(z.array(z.string().regex(/^\d+$/, 'comma-separated port numbers').transform(Number).pipe(z.number().int().min(1).max(65535))));
const uidRange = z
  .string()
  .regex(/^\d+(-\d+)?$/, 'a uid or a range first-last')
  .transform((value) => {
    const [first = 0, last = first] = value.split('-').map(Number);
    return { first, last };
  })
  .refine((r) => r.first >= 1 && r.last >= r.first && r.last < 2 ** 31, 'uids from 1, first <= last');

export const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** https://no-color.org: any non-empty value turns the CLI's colours off. */
    NO_COLOR: z.string().optional(),
    HOST: z.string().default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: z.url().optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
      .refine(parsableUrl, 'must be a valid URL: postgresql://user:password@host:port/database (percent-encode special characters)')
      .default('postgresql://postgres@127.0.0.1:5432/ci_replay'),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .refine(parsableUrl, 'must be a valid URL: redis://user:password@host:port/db (percent-encode special characters)')
      .default('redis://127.0.0.1:6379'),
    QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only').default('ci-replay'),
    CI_BACKEND: z.enum(['local', 'github']).default('local'),
    DATA_DIR: z.string().default('.data'),
    BENCH_OWNER: z.string().regex(/^[A-Za-z0-9-]+$/, 'a GitHub account name').optional(),
    BENCH_REPO_MODE: z.enum(['fork', 'mirror']).default('fork'),
    APP_ID: z.string().regex(/^\d+$/, 'the numeric GitHub App id').optional(),
    PRIVATE_KEY: z.string().optional(),
    PRIVATE_KEY_PATH: z.string().optional(),
    WEBHOOK_SECRET: z.string().min(1).optional(),
    GITHUB_API_URL: z.url().default('https://api.github.com'),
    GITHUB_GIT_URL: z.url().default('https://github.com'),
    PATCH_MAX_BYTES: positiveInt.default(5 * 1024 * 1024),
    BODY_LIMIT_BYTES: positiveInt.default(64 * 1024 * 1024),
    WORKER_CONCURRENCY: positiveInt.default(2),
    EXECUTOR_MAX_PARALLEL_JOBS: positiveInt.default(2),
    EXECUTOR_OUTPUT_CAP_BYTES: positiveInt.default(64 * 1024 * 1024),
    EXECUTOR_SANDBOX: z.enum(['auto', 'namespaces', 'off']).default('auto'),
    EXECUTOR_NETWORK: z.enum(['none', 'egress']).default('egress'),
    EXECUTOR_RUN_AS_UID: uidRange.default({ first: 60000, last: 60999 }),
    EXECUTOR_RUN_AS_GID: positiveInt.optional(),
    EXECUTOR_BLOCKED_PORTS: portList.default([]),
    EXECUTOR_HIDDEN_PATHS: z.string().default(''),
    EXECUTOR_STEP_MEMORY_MB: positiveInt.default(4096),
    EXECUTOR_STEP_MAX_PROCESSES: positiveInt.default(1024),
    EXECUTOR_STEP_CPU_SECONDS: positiveInt.default(7200),
    EXECUTOR_STEP_FILE_SIZE_MB: positiveInt.default(4096),
    EXECUTOR_STEP_MAX_OUTPUT_BYTES: positiveInt.default(1024 * 1024 * 1024),
    // jobs in containers (docs/local-containers.md)
    LOCAL_RUNTIME: z.enum(['auto', 'docker', 'podman', 'host']).optional(),
    LOCAL_RUNNER_IMAGE: z.string().default(''),
    LOCAL_RUNNER_IMAGE_LABELS: z.string().default('').refine((v) => v.split(',').every((p) => p.trim() === '' || /^[^=\s]+=\S+$/.test(p.trim())), 'a list of <label>=<image>'),
    LOCAL_NETWORK: z.enum(['none', 'egress']).default('none'),
    // the container runtime's own socket settings: the one part of the worker's environment its CLI and API client get
    DOCKER_HOST: z.string().min(1).optional(),
    CONTAINER_HOST: z.string().min(1).optional(),
    XDG_RUNTIME_DIR: z.string().min(1).optional(),
    LOCAL_EGRESS_NETWORK: z.string().default('bridge'),
    LOCAL_CONTAINER_CPUS: z.coerce.number().positive().default(2),
    LOCAL_CONTAINER_USER: z.enum(['unprivileged', 'root']).default('unprivileged'),
    LOCAL_SERVICE_HEALTH_TIMEOUT_MS: positiveInt.default(120_000),
    LOCAL_IMAGE_MIRROR: z.url().default('http://deb.debian.org/debian'),
    LOCAL_IMAGE_CACHE_DIR: z.string().default('/var/cache/ci-replay/debootstrap'),
    ACTIONS_BASE_URL: z.url().default('https://github.com'),
    ACTIONS_TOKEN: z.string().min(1).optional(),
    LOCAL_ACTIONS: z.enum(['online', 'offline']).default('online'),
    NO_RUN_GRACE_SECONDS: positiveInt.default(600),
    RECONCILE_TURN_SECONDS: positiveInt.default(300),
    RUN_TIMEOUT_MINUTES: positiveInt.default(360),
    ACCOUNT_POOL_FILE: z.string().min(1).optional(),
    MATRIX_STRATEGY: z.enum(['first', 'newest-python', 'from-logs']).default('from-logs'),
    PIN_DEPENDENCIES: bool.default(false),
    PIN_INDEX_URL: z.url().optional(),
    RECOVERY_INTERVAL_SECONDS: positiveInt.default(60),
    REVALIDATE_INTERVAL_HOURS: z.coerce.number().min(0).default(0),
    REVALIDATE_REPEATS: positiveInt.max(10).default(3),
    REVALIDATE_BATCH: positiveInt.default(10),
    REVALIDATE_MAX_CONCURRENT: positiveInt.default(4),
    REVALIDATE_TICK_SECONDS: positiveInt.default(60),
    REVALIDATE_PRIORITY: positiveInt.max(2_097_152).default(1000),
    TRACK_MAX_ROUNDS: positiveInt.max(100).default(20),
    SHUTDOWN_GRACE_MS: positiveInt.default(30_000),
    DB_OUTAGE_DEADLINE_MINUTES: z.coerce.number().positive().default(60),
    LEASE_SECONDS: positiveInt.min(2).default(60),
    LEASE_MAX_RESUMES: z.coerce.number().int().min(0).default(3),
    FAULT_PAUSE_AT: z.enum(FAULT_STEPS).optional(),
    UI_SESSION_SECRET: z.string().min(32, 'at least 32 characters (e.g. `openssl rand -hex 32`)').optional(),
    UI_SESSION_HOURS: positiveInt.max(24 * 30).default(12),
  })
  .superRefine((env, ctx) => {
    if (env.FAULT_PAUSE_AT !== undefined && env.NODE_ENV !== 'test') {
      ctx.addIssue({ code: 'custom', path: ['FAULT_PAUSE_AT'], message: 'is a fault-injection setting for tests: only allowed with NODE_ENV=test' });
    }
    if (env.CI_BACKEND !== 'github') return;
    for (const name of ['APP_ID', 'WEBHOOK_SECRET', 'BENCH_OWNER'] as const) {
      if (env[name] === undefined) {
        ctx.addIssue({ code: 'custom', path: [name], message: `is required when CI_BACKEND=github` });
      }
    }
    if (env.PRIVATE_KEY === undefined && env.PRIVATE_KEY_PATH === undefined) {
      ctx.addIssue({ code: 'custom', path: ['PRIVATE_KEY'], message: 'or PRIVATE_KEY_PATH is required when CI_BACKEND=github' });
    }
  });

export type Env = z.infer<typeof envSchema>;
