import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { ActionSettings } from './executor/actions/types.js';
import type { SandboxSettings } from './executor/sandbox/settings.js';
import type { ContainerSettings } from './executor/container/settings.js';
import { parseLabelImages } from './executor/container/settings.js';
import { projectRoot } from './paths.js';

/**
 * The one reader of the environment. Every variable is documented in .env.example and the README.
 * `loadConfig()` fails fast with a message naming the variable and how to fix it.
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

const schema = z
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

/** The password of a URL (`scheme://user:password@host`), as written and decoded; undefined when it has none. */
function urlPassword(value: string): string[] | undefined {
  try {
    const raw = new URL(value).password;
    if (raw === '') return undefined;
    return [raw, decodeURIComponent(raw)];
  } catch {
    return undefined;
  }
}

function urlPort(value: string, fallback: number): number {
  try {
    const parsed = new URL(value);
    return parsed.port === '' ? fallback : Number(parsed.port);
  } catch {
    return fallback;
  }
}

const LOCAL_HOSTS = new Set(['', 'localhost', '127.0.0.1', '[::1]', '0.0.0.0', '[::]']);

/** A service endpoint on another host (local ones are covered by the local-address port rules). */
function endpoint(value: string, fallback: number): { host: string; port: number } | null {
  try {
    const parsed = new URL(value);
    if (LOCAL_HOSTS.has(parsed.hostname)) return null;
    return { host: parsed.hostname, port: parsed.port === '' ? fallback : Number(parsed.port) };
  } catch {
    return null;
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

/** Variables whose value is a secret as a whole: never shown, and masked wherever it would appear. */
const SECRET_NAMES = /KEY|SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIAL|AUTH/i;

/** `scheme://user:password@` or `scheme://token@` at the start of a value (parsed or not: a malformed URL too). */
const URL_USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#\s]*)@/i;
/** Query parameters that carry a credential (`?password=…`, `&sslpassword=…`, `?token=…`, `?api_key=…`). */
const URL_SECRET_PARAM = /([?&;][^=&;#\s]*(?:pass|pwd|secret|token|key)[^=&;#\s]*=)[^&;#\s]*/gi;

/** A value with the credentials of a URL masked: `postgresql://u:hunter2@h/db` → `postgresql://u:***@h/db`. */
function redactUrl(value: string): string {
  const masked = value.replace(URL_USERINFO, (_, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon === -1 ? '***' : `${userinfo.slice(0, colon)}:***`}@`;
  });
  return masked.replace(URL_SECRET_PARAM, '$1***');
}

/** The credentials found in the environment: secret-named values, and passwords, tokens and key parameters inside URLs. */
function credentialsIn(source: NodeJS.ProcessEnv): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || value === '') continue;
    // PRIVATE_KEY_PATH and the like name where a secret is, not the secret.
    if (SECRET_NAMES.test(name) && !/_(PATH|FILE|DIR)$/.test(name)) found.push(value, ...value.split(/\r?\n/).map((line) => line.trim()));
    const userinfo = URL_USERINFO.exec(value)?.[2];
    if (userinfo !== undefined) found.push(userinfo.includes(':') ? userinfo.slice(userinfo.indexOf(':') + 1) : userinfo);
    for (const match of value.matchAll(URL_SECRET_PARAM)) found.push(value.slice((match.index ?? 0) + match[1]!.length, (match.index ?? 0) + match[0].length));
  }
  // Very short values would mask ordinary words; percent-decoded forms are masked too.
  const decoded = found.flatMap((secret) => {
    try {
      return [secret, decodeURIComponent(secret)];
    } catch {
      return [secret];
    }
  });
  return [...new Set(decoded.filter((secret) => secret.length >= 4))].sort((a, b) => b.length - a.length);
}

/** Every problem line with each credential of the environment masked, whatever put it there (a value, a message). */
function redactProblems(problems: string[], source: NodeJS.ProcessEnv): string[] {
  const secrets = credentialsIn(source);
  return problems.map((problem) => secrets.reduce((text, secret) => text.split(secret).join('***'), problem));
}

function describe(name: string, value: string | undefined): string {
  if (value === undefined) return 'nothing';
  if (SECRET_NAMES.test(name)) return 'a value (hidden)';
  const shown = redactUrl(value);
  return JSON.stringify(shown.length > 60 ? `${shown.slice(0, 60)}…` : shown);
}

