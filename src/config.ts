import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

/**
 * The one reader of the environment. Every variable is documented in .env.example and the README.
 * `loadConfig()` fails fast with a message naming the variable and how to fix it.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const positiveInt = z.coerce.number().int().positive();

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    HOST: z.string().default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: z.url().optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
      .default('postgresql://postgres@127.0.0.1:5432/ci_replay'),
    REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').default('redis://127.0.0.1:6379'),
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
    NO_RUN_GRACE_SECONDS: positiveInt.default(600),
    RUN_TIMEOUT_MINUTES: positiveInt.default(360),
    MATRIX_STRATEGY: z.enum(['first', 'newest-python', 'from-logs']).default('from-logs'),
    PIN_DEPENDENCIES: bool.default(false),
    PIN_INDEX_URL: z.url().optional(),
    RECOVERY_INTERVAL_SECONDS: positiveInt.default(60),
    REVALIDATE_INTERVAL_HOURS: z.coerce.number().min(0).default(0),
    REVALIDATE_REPEATS: positiveInt.default(2),
    REVALIDATE_BATCH: positiveInt.default(10),
    TRACK_MAX_ROUNDS: positiveInt.max(100).default(20),
    SHUTDOWN_GRACE_MS: positiveInt.default(30_000),
  })
  .superRefine((env, ctx) => {
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
  worker: { concurrency: number; shutdownGraceMs: number; recoveryIntervalSeconds: number };
  executor: { maxParallelJobs: number; outputCapBytes: number };
  pipeline: { noRunGraceSeconds: number; runTimeoutMinutes: number };
  /** Scheduled re-validation: every instance replayed (baseline must fail, ground truth must pass) `repeats` times. */
  revalidation: { intervalHours: number; repeats: number; batch: number };
  /** SWE-CI multi-round tracks: most rounds a track accepts. */
  tracks: { maxRounds: number };
  standardize: {
    matrixStrategy: 'first' | 'newest-python' | 'from-logs';
    pinDependencies: boolean;
    pinIndexUrl: string | undefined;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}\nSee .env.example for every variable and its meaning.`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment (process.env by default) into the typed Config, or throws ConfigError. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set" (compose files pass `${APP_ID:-}` through).
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message} (got ${describe(String(issue.path[0]), source[String(issue.path[0])])})`),
    );
  }
  const env = parsed.data;
  const privateKey = readPrivateKey(env.PRIVATE_KEY, env.PRIVATE_KEY_PATH);
  const github =
    env.APP_ID !== undefined && privateKey !== undefined && env.WEBHOOK_SECRET !== undefined
      ? {
          appId: env.APP_ID,
          privateKey,
          webhookSecret: env.WEBHOOK_SECRET,
          apiUrl: env.GITHUB_API_URL.replace(/\/$/, ''),
          gitUrl: env.GITHUB_GIT_URL.replace(/\/$/, ''),
          benchOwner: env.BENCH_OWNER ?? '',
          repoMode: env.BENCH_REPO_MODE,
        }
      : undefined;
  return {
    env: env.NODE_ENV,
    logLevel: env.LOG_LEVEL,
    host: env.HOST,
    port: env.PORT,
    publicUrl: (env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/$/, ''),
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    queuePrefix: env.QUEUE_PREFIX,
    ciBackend: env.CI_BACKEND,
    dataDir: resolve(env.DATA_DIR),
    github,
    webhookSecret: env.WEBHOOK_SECRET,
    limits: { patchMaxBytes: env.PATCH_MAX_BYTES, bodyLimitBytes: env.BODY_LIMIT_BYTES },
    worker: {
      concurrency: env.WORKER_CONCURRENCY,
      shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
      recoveryIntervalSeconds: env.RECOVERY_INTERVAL_SECONDS,
    },
    executor: { maxParallelJobs: env.EXECUTOR_MAX_PARALLEL_JOBS, outputCapBytes: env.EXECUTOR_OUTPUT_CAP_BYTES },
    pipeline: { noRunGraceSeconds: env.NO_RUN_GRACE_SECONDS, runTimeoutMinutes: env.RUN_TIMEOUT_MINUTES },
    revalidation: { intervalHours: env.REVALIDATE_INTERVAL_HOURS, repeats: env.REVALIDATE_REPEATS, batch: env.REVALIDATE_BATCH },
    tracks: { maxRounds: env.TRACK_MAX_ROUNDS },
    standardize: {
      matrixStrategy: env.MATRIX_STRATEGY,
      pinDependencies: env.PIN_DEPENDENCIES,
      pinIndexUrl: env.PIN_INDEX_URL,
    },
  };
}

function readPrivateKey(inline: string | undefined, path: string | undefined): string | undefined {
  if (inline !== undefined) return inline.replace(/\\n/g, '\n');
  if (path === undefined) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`PRIVATE_KEY_PATH: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}); point it at the App's .pem file`]);
  }
}

const SECRET_NAMES = /KEY|SECRET|PASSWORD|TOKEN/;

function describe(name: string, value: string | undefined): string {
  if (value === undefined) return 'nothing';
  if (SECRET_NAMES.test(name)) return 'a value (hidden)';
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

