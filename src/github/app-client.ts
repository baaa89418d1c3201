import { createAppAuth } from '@octokit/auth-app';
import Bottleneck from 'bottleneck';
import { ProbotOctokit } from 'probot';
import type { Logger } from 'pino';
import { permanent, rateLimited } from '../errors.js';
import { mapGithubError, rateLimitWait } from './map-error.js';
import { createMemoryRateBudget, type BudgetLimits, type RateBudget } from './rate-budget.js';

export type GithubHeaders = Record<string, string | number | undefined>;

export interface GithubResponse<T = unknown> {
  status: number;
  data: T;
  headers: GithubHeaders;
}

/** A narrow GitHub REST client: routes as `METHOD /path/{param}`, errors already typed (src/errors.ts). */
export interface GithubClient {
  request<T = unknown>(route: string, params?: Record<string, unknown>): Promise<GithubResponse<T>>;
  /** Every item of a paginated list (plain arrays and `{ total_count, <items> }` pages alike). */
  paginate<T = unknown>(route: string, params?: Record<string, unknown>): Promise<T[]>;
}

export interface InstallationClient extends GithubClient {
  readonly installationId: number;
  /** The account the App is installed on ('Organization' or 'User'; null when created by id alone). */
  readonly accountType: string | null;
  /** An installation access token (cached until shortly before it expires), for git over HTTPS. */
  token(): Promise<string>;
}

export interface GithubApp {
  /** Authenticated as the App itself (JWT): /app, /app/installations, /app/hook/deliveries. */
  readonly app: GithubClient;
  installation(installationId: number): InstallationClient;
  /** The installation on an account (user or organization), looked up once and cached. */
  installationFor(account: string): Promise<InstallationClient>;
}

export interface GithubAppOptions {
  appId: string;
  privateKey: string;
  /** REST base URL (config.github.apiUrl; the simulator's URL in tests). */
  baseUrl: string;
  logger: Logger;
  /** Shared rate-limit budget (createRedisRateBudget for all workers); default: this process only. */
  budget?: RateBudget;
  /** Retries of idempotent requests on 5xx/network errors, and of any request on secondary limits (default 3). */
  retries?: number;
  /** Unit of retry waits in ms (default 1000: `retry-after` seconds and (n+1)² s backoff). Tests lower it. */
  retryAfterBaseMs?: number;
  /** Longest rate-limit wait retried in place (default 60 s); longer ones throw rate_limited with retryAfterMs. */
  maxInlineWaitMs?: number;
  /** Least time between two content-creating requests of one installation in this process (default 1000 ms, GitHub's guidance). */
  writeIntervalMs?: number;
  /**
   * The budget an installation may use, counted ahead in `budget` before each request (the pool account's
   * `restPerHour` / `writesPerMinute`); null: only GitHub's headers pause it. Looked up once a minute per installation.
   */
  limits?: (installation: { installationId: number; account: string | null }) => Promise<BudgetLimits | null>;
}

const LIMITS_TTL_MS = 60_000;
/** Requests made with the App's JWT (token minting, installation lookups): not counted against an installation. */
const APP_PATH = /\/app(\/|$)/;

/**
 * POSTs that are safe to repeat: minting a token, asking for a redelivery (deduplicated by GUID), forking (a
 * second fork request returns the existing fork). Every other POST (check-run creation, dispatch) is never
 * retried blindly on an ambiguous failure; callers make it idempotent by looking the result up.
 */
const REPEATABLE_POST = /\/(access_tokens|attempts|forks)$/;

type AnyOctokit = InstanceType<typeof ProbotOctokit>;

/**
 * The GitHub App: Probot's Octokit (throttling + retry + pagination plugins) with App authentication, one
 * client per installation, pino logging, a shared rate-limit budget, and errors mapped to typed errors.
 */
export function createGithubApp(options: GithubAppOptions): GithubApp {
  const budget = options.budget ?? createMemoryRateBudget();
  const retries = options.retries ?? 3;
  const base = options.retryAfterBaseMs ?? 1000;
  const maxInlineWaitMs = options.maxInlineWaitMs ?? 60_000;
  const write = new Bottleneck.Group({ maxConcurrent: 1, minTime: options.writeIntervalMs ?? 1000 });
  const log = options.logger.child({ component: 'github' });
  const octokitLog = {
    debug: (...args: unknown[]) => log.debug({ detail: args[0] }, String(args[1] ?? 'github request')),
    info: (...args: unknown[]) => log.info({ detail: args[0] }, String(args[1] ?? 'github')),
    warn: (...args: unknown[]) => log.warn({ detail: args[0] }, 'github warning'),
    error: (...args: unknown[]) => log.error({ detail: args[0] }, 'github error'),
  };

  const limitsCache = new Map<number, { limits: BudgetLimits | null; until: number }>();
  const limitsOf = async (installationId: number, account: string | null): Promise<BudgetLimits | null> => {
    if (options.limits === undefined) return null;
    const cached = limitsCache.get(installationId);
    if (cached !== undefined && cached.until > Date.now()) return cached.limits;
    let limits: BudgetLimits | null = null;
    try {
      limits = await options.limits({ installationId, account });
    } catch (error) {
      log.warn({ err: error, installationId }, 'installation budget lookup failed; counting nothing ahead for a minute');
    }
    limitsCache.set(installationId, { limits, until: Date.now() + LIMITS_TTL_MS });
    return limits;
  };
  // Every HTTP request an installation client sends (retries included) is reserved in its account's budget first.
  const countedFetch = (installationId: number, account: string | null, budgetKey: string): typeof fetch => async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const limits = APP_PATH.test(url.pathname) ? null : await limitsOf(installationId, account);
    if (limits !== null) {
      const wait = await budget.take(budgetKey, { write: method !== 'GET' && method !== 'HEAD' }, limits);
      if (wait > 0) throw rateLimited(`the budget of installation ${installationId} is spent for ${Math.ceil(wait / 1000)} s`, wait);
    }
    return fetch(input, init);
  };

  const build = (installationId: number | undefined, budgetKey: string, account: string | null = null): AnyOctokit => {
    const onLimit = (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number): boolean => {
      void budget.pause(budgetKey, retryAfter * base);
      log.warn({ retryAfter, retryCount, budgetKey }, 'github rate limit hit');
      // Wait in place only briefly; a long wait (primary limit until the reset) surfaces as rate_limited so the
      // queue delays the job instead of holding a worker slot.
      return retryCount < retries && retryAfter * base <= maxInlineWaitMs;
    };
    const octokit = new ProbotOctokit({
      authStrategy: createAppAuth,
      auth: { appId: options.appId, privateKey: options.privateKey, ...(installationId !== undefined ? { installationId } : {}) },
      baseUrl: options.baseUrl,
      log: octokitLog,
      ...(installationId === undefined ? {} : { request: { fetch: countedFetch(installationId, account, budgetKey) } }),
      // Write spacing per installation (each is its own actor at GitHub), not per App.
      throttle: { id: `ci-replay-${options.appId}-${budgetKey}`, onSecondaryRateLimit: onLimit, onRateLimit: onLimit, retryAfterBaseValue: base, write },
      retry: { retries, retryAfterBaseValue: base },
    });
    octokit.hook.before('request', (request) => {
      const settings = (request.request ?? {}) as { retries?: number };
      if (request.method === 'POST' && !REPEATABLE_POST.test(String(request.url))) settings.retries = 0;
      request.request = settings as typeof request.request;
    });
    octokit.hook.wrap('request', async (request, params) => {
      await budget.waitTurn(budgetKey);
      try {
        const response = await request(params);
        await budget.observe(budgetKey, response.headers as GithubHeaders);
        return response;
      } catch (error) {
        const failure = error as { status?: number; response?: { headers?: GithubHeaders } };
        if (typeof failure.status === 'number' && failure.response?.headers !== undefined) {
          await budget.observe(budgetKey, failure.response.headers);
          const wait = rateLimitWait(failure.status, failure.response.headers);
          if (wait !== null) await budget.pause(budgetKey, wait);
        }
        throw mapGithubError(error);
      }
    });
    return octokit;
  };

  const wrap = (octokit: AnyOctokit): GithubClient => ({
    async request<T>(route: string, params: Record<string, unknown> = {}) {
      const response = await octokit.request(route, params);
      return { status: response.status, data: response.data as T, headers: response.headers as GithubHeaders };
    },
    async paginate<T>(route: string, params: Record<string, unknown> = {}) {
      return (await octokit.paginate(route, { per_page: 100, ...params })) as T[];
    },
  });

  const app = wrap(build(undefined, 'app'));
  const installations = new Map<number, InstallationClient>();
  const byAccount = new Map<string, { id: number; type: string | null }>();

  const installation = (installationId: number, accountType: string | null = null, account: string | null = null): InstallationClient => {
    const cached = installations.get(installationId);
    if (cached !== undefined) return cached;
    const octokit = build(installationId, `installation-${installationId}`, account);
    const client: InstallationClient = {
      ...wrap(octokit),
      installationId,
      accountType,
      async token() {
        const auth = (await octokit.auth({ type: 'installation' })) as { token: string };
        return auth.token;
      },
    };
    installations.set(installationId, client);
    return client;
  };

  return {
    app,
    installation,
    async installationFor(account) {
      const key = account.toLowerCase();
      let found = byAccount.get(key);
      if (found === undefined) {
        const all = await app.paginate<{ id: number; account: { login: string; type?: string } | null }>('GET /app/installations');
        for (const item of all) if (item.account !== null) byAccount.set(item.account.login.toLowerCase(), { id: item.id, type: item.account.type ?? null });
        found = byAccount.get(key);
      }
      if (found === undefined) throw permanent('github_not_installed', `the GitHub App is not installed on ${account}`);
      return installation(found.id, found.type, account);
    },
  };
}
