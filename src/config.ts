import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseLabelImages, type ContainerSettings } from './executor/container/settings.js';
import { envSchema } from './config/env-schema.js';
import { describeValue, redactProblems } from './config/redact-problems.js';
import type { Config } from './config/types.js';
import { endpoint, urlPassword, urlPort } from './config/url-parts.js';
import { projectRoot } from './paths.js';

export { FAULT_STEPS, type FaultStep } from './config/env-schema.js';
export type { Config, GithubAppConfig } from './config/types.js';

/**
 * The one reader of the environment. Every variable is documented in .env.example and the README; the schema is
 * in src/config/env-schema.ts. `loadConfig()` fails fast with a message naming the variable and how to fix it.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}\nSee .env.example for every variable and its meaning.`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses an environment (process.env by default) into the typed Config, or throws ConfigError. Whatever check
 * raised it, the error never prints a credential: URL passwords and tokens, and every secret-valued variable, are
 * masked in its message.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  try {
    return parseConfig(source);
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(redactProblems(error.problems, source));
    throw error;
  }
}

function parseConfig(source: NodeJS.ProcessEnv): Config {
  // An empty variable means "not set" (compose files pass `${APP_ID:-}` through).
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message} (got ${describeValue(String(issue.path[0]), source[String(issue.path[0])])})`),
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
    noColor: env.NO_COLOR !== undefined,
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
      dbOutageDeadlineMinutes: env.DB_OUTAGE_DEADLINE_MINUTES,
      leaseSeconds: env.LEASE_SECONDS,
      maxResumes: env.LEASE_MAX_RESUMES,
      faultPauseAt: env.FAULT_PAUSE_AT,
    },
    executor: {
      maxParallelJobs: env.EXECUTOR_MAX_PARALLEL_JOBS,
      outputCapBytes: env.EXECUTOR_OUTPUT_CAP_BYTES,
      sandbox: {
        mode: env.EXECUTOR_SANDBOX,
        network: env.EXECUTOR_NETWORK,
        runAsUid: env.EXECUTOR_RUN_AS_UID,
        runAsGid: env.EXECUTOR_RUN_AS_GID ?? null,
        blockedPorts: [...new Set([urlPort(env.DATABASE_URL, 5432), urlPort(env.REDIS_URL, 6379), env.PORT, ...env.EXECUTOR_BLOCKED_PORTS])].filter((p) => p > 0),
        blockedEndpoints: [endpoint(env.DATABASE_URL, 5432), endpoint(env.REDIS_URL, 6379)].filter((e): e is { host: string; port: number } => e !== null),
        hiddenPaths: [
          resolve(env.DATA_DIR),
          projectRoot(),
          ...(env.PRIVATE_KEY_PATH === undefined ? [] : [resolve(env.PRIVATE_KEY_PATH)]),
          ...env.EXECUTOR_HIDDEN_PATHS.split(',').map((p) => p.trim()).filter((p) => p !== '').map((p) => resolve(p)),
        ],
        limits: {
          memoryMb: env.EXECUTOR_STEP_MEMORY_MB,
          maxProcesses: env.EXECUTOR_STEP_MAX_PROCESSES,
          cpuSeconds: env.EXECUTOR_STEP_CPU_SECONDS,
          fileSizeMb: env.EXECUTOR_STEP_FILE_SIZE_MB,
          maxOutputBytes: env.EXECUTOR_STEP_MAX_OUTPUT_BYTES,
        },
        firewallChain: 'CI_REPLAY_STEPS',
      },
      container: {
        // tests (NODE_ENV=test) run jobs on the host unless they ask for a runtime
        runtime: env.LOCAL_RUNTIME ?? (env.NODE_ENV === 'test' ? 'host' : 'auto'),
        runnerImage: env.LOCAL_RUNNER_IMAGE,
        labelImages: parseLabelImages(env.LOCAL_RUNNER_IMAGE_LABELS),
        network: env.LOCAL_NETWORK,
        egressNetwork: env.LOCAL_EGRESS_NETWORK,
        cpus: env.LOCAL_CONTAINER_CPUS,
        user: env.LOCAL_CONTAINER_USER,
        serviceHealthTimeoutMs: env.LOCAL_SERVICE_HEALTH_TIMEOUT_MS,
        hostNode: null,
        daemonEnv: definedOnly({ DOCKER_HOST: env.DOCKER_HOST, CONTAINER_HOST: env.CONTAINER_HOST, XDG_RUNTIME_DIR: env.XDG_RUNTIME_DIR }),
      } satisfies ContainerSettings,
      images: { mirror: env.LOCAL_IMAGE_MIRROR, cacheDir: resolve(env.LOCAL_IMAGE_CACHE_DIR), workDir: join(resolve(env.DATA_DIR), 'image-build') },
      secretValues: secretValues([
        urlPassword(env.DATABASE_URL),
        urlPassword(env.REDIS_URL),
        env.PIN_INDEX_URL === undefined ? undefined : urlPassword(env.PIN_INDEX_URL),
        privateKey,
        env.WEBHOOK_SECRET,
        env.ACTIONS_TOKEN,
      ]),
      actions: {
        baseUrl: env.ACTIONS_BASE_URL.replace(/\/+$/, ''),
        mode: env.LOCAL_ACTIONS,
        cacheDir: join(resolve(env.DATA_DIR), 'actions'),
        token: env.ACTIONS_TOKEN,
      },
    },
    pipeline: { noRunGraceSeconds: env.NO_RUN_GRACE_SECONDS, runTimeoutMinutes: env.RUN_TIMEOUT_MINUTES, reconcileTurnSeconds: env.RECONCILE_TURN_SECONDS },
    ...(env.ACCOUNT_POOL_FILE !== undefined ? { accountPoolFile: env.ACCOUNT_POOL_FILE } : {}),
    revalidation: {
      intervalHours: env.REVALIDATE_INTERVAL_HOURS,
      repeats: env.REVALIDATE_REPEATS,
      batch: env.REVALIDATE_BATCH,
      maxConcurrent: env.REVALIDATE_MAX_CONCURRENT,
      tickSeconds: env.REVALIDATE_TICK_SECONDS,
      priority: env.REVALIDATE_PRIORITY,
    },
    tracks: { maxRounds: env.TRACK_MAX_ROUNDS },
    ui: { sessionSecret: env.UI_SESSION_SECRET, sessionHours: env.UI_SESSION_HOURS },
    standardize: {
      matrixStrategy: env.MATRIX_STRATEGY,
      pinDependencies: env.PIN_DEPENDENCIES,
      pinIndexUrl: env.PIN_INDEX_URL,
    },
  };
}

/** The entries that have a value. */
function definedOnly(values: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = value;
  return out;
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

/**
 * Secret values worth masking, with each line of a multi-line one (the App's PEM key: logs arrive line by line);
 * at least 4 characters (shorter ones would mask ordinary words in every log).
 */
function secretValues(values: Array<string | string[] | undefined>): string[] {
  const all = values.flat().flatMap((v) => (v === undefined ? [] : v.includes('\n') ? [v, ...v.split(/\r?\n/).map((l) => l.trim())] : [v]));
  return [...new Set(all.filter((v) => v.trim().length >= 4))];
}
