import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signAppJwt } from './app-jwt.js';
import { mintToken, publicKeyFromPem } from './auth.js';
import type { RunFaultRule, SimContext } from './context.js';
import { createFaults, type ApiFaultRule, type SimFaults } from './faults.js';
import { commitFiles, resolveRef, type CommitSpec } from './git/bare-repo.js';
import type { Route } from './http/router.js';
import { createRepoRecord, type CreateRepoOptions } from './repos.js';
import { actionsRoutes } from './routes/actions.js';
import { appRoutes, TOKEN_TTL_MS } from './routes/app.js';
import { checksRoutes } from './routes/checks.js';
import { gitRefRoutes } from './routes/git-refs.js';
import { repoRoutes } from './routes/repos.js';
import { createBashRunner } from './runs/bash-runner.js';
import { createEngine } from './runs/engine.js';
import type { WorkflowRunner } from './runs/runner.js';
import { serializeInstallation, appBotUser } from './serialize/accounts.js';
import { createRequestHandler, type SimRequest } from './server.js';
import { createState, DEFAULT_APP_ID, ensureAccount, findRepo, nextId } from './state.js';
import type { Permissions, SimInstallation, SimRepo, SimState } from './types.js';
import { createDeliverer } from './webhooks/deliverer.js';
import { createSimLimits, type SimLimits } from './limits.js';

export type { WorkflowRunner, WorkflowRunContext, WorkflowRunOutcome } from './runs/runner.js';
export type { ApiFaultRule, ApiFaultResponse, SimFaults, WebhookMatch } from './faults.js';
export type { SimState, SimRepo, SimRun, SimJob, SimInstallation, SimDelivery, Permissions } from './types.js';
export { createBashRunner } from './runs/bash-runner.js';
export { createExecutorRunner, type ExecutorRunnerOptions } from './runs/executor-runner.js';
export { signAppJwt } from './app-jwt.js';
export { signBody, verifySignature } from './webhooks/sign.js';
export { createSimLimits, type SimLimits, type AccountJobStats, type InstallationRateLimits } from './limits.js';
export { createSyntheticRunner, type SyntheticRunnerOptions, type DurationDistribution } from './runs/synthetic-runner.js';

export interface GithubSimOptions {
  /** Executes workflow runs; default: the built-in bash runner. */
  runner?: WorkflowRunner;
  /** Where webhook deliveries are POSTed (can be set later with setWebhookUrl). */
  webhookUrl?: string | null;
  webhookSecret?: string;
  appId?: number;
  appSlug?: string;
  host?: string;
  port?: number;
  /** How long a fork stays "being created" (default 100 ms). */
  forkDelayMs?: number;
  /** Delay between a run being queued and starting (default 20 ms). */
  queueDelayMs?: number;
  /** Lifetime of signed log/artifact URLs (default 60 s, like GitHub's). */
  signedUrlTtlMs?: number;
  /** Lifetime of installation tokens (default 1 hour). */
  tokenTtlMs?: number;
  webhookTimeoutMs?: number;
  /** Where bare repositories and run scratch space live (default: a new temp dir removed on close). */
  dataDir?: string;
}

export interface CreateInstallationOptions {
  account: string;
  accountType?: 'Organization' | 'User';
  permissions?: Permissions;
  repositorySelection?: 'all' | 'selected';
  repositories?: string[];
}

export interface SimCounters {
  /** Calls to `METHOD /path/template` (git: `POST /{owner}/{repo}.git/git-receive-pack`). */
  get(key: string): number;
  snapshot(): Record<string, number>;
  total(): number;
  reset(): void;
}

export interface GithubSim {
  url: string;
  appId: number;
  appSlug: string;
  privateKeyPem: string;
  webhookSecret: string;
  state: SimState;
  faults: SimFaults;
  counters: SimCounters;
  /** Per-account concurrent-job limits and per-installation rate limits (limits.ts). */
  limits: SimLimits;
  /** Every REST request received (method, path, matched template, JSON body), for contract checks. */
  requests(): SimRequest[];
  gitUrl(owner: string, name: string): string;
  setWebhookUrl(url: string | null): void;
  createInstallation(options: CreateInstallationOptions): SimInstallation;
  createRepo(options: CreateRepoOptions): Promise<SimRepo>;
  /** Commits files straight into a repository (no push event, no runs): for seeding upstream history. */
  commit(fullName: string, spec: CommitSpec): Promise<string>;
  appJwt(): string;
  /** Mints an installation token directly (tests that do not exercise the token endpoint). */
  installationToken(installationId: number, permissions?: Permissions): string;
  clickCheckRunAction(checkRunId: number, identifier: string): void;
  /** The "Re-run" button of a check run (check_run `rerequested`). */
  rerequestCheckRun(checkRunId: number): void;
  /** Resolves when no run is executing and no delivery is in flight. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_PERMISSIONS: Permissions = {
  actions: 'write', administration: 'write', checks: 'write', contents: 'write', metadata: 'read', workflows: 'write',
};

export async function startGithubSim(options: GithubSimOptions = {}): Promise<GithubSim> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'github-sim-')));
  const state = createState(options.appId ?? DEFAULT_APP_ID, options.appSlug ?? 'ci-replay-sim');
  const webhookSecret = options.webhookSecret ?? randomBytes(20).toString('hex');
  let webhookUrl = options.webhookUrl ?? null;
  let baseUrl = '';
  const background = new Set<Promise<unknown>>();
  const neverStartRules: RunFaultRule[] = [];
  const ctx: SimContext = {
    state,
    base: () => baseUrl,
    deliverer: createDeliverer({ state, secret: webhookSecret, hookId: nextId(state, 'hook'), getUrl: () => webhookUrl, timeoutMs: options.webhookTimeoutMs ?? 10_000 }),
    runner: options.runner ?? createBashRunner(),
    dataDir,
    forkDelayMs: options.forkDelayMs ?? 100,
    queueDelayMs: options.queueDelayMs ?? 20,
    signedUrlTtlMs: options.signedUrlTtlMs ?? 60_000,
    signingKey: randomBytes(32),
    neverStartRules,
    stuckForks: new Set(),
    limits: createSimLimits(),
    track: (work) => {
      const tracked = work.catch(() => undefined);
      background.add(tracked);
      void tracked.finally(() => background.delete(tracked));
    },
  };
  const engine = createEngine(ctx);
  const checks = checksRoutes(ctx);
  const routes: Route[] = [
    ...appRoutes(ctx, () => options.tokenTtlMs ?? TOKEN_TTL_MS),
    ...repoRoutes(ctx, engine),
    ...actionsRoutes(ctx, engine),
    ...checks.routes,
    ...gitRefRoutes(ctx, engine),
  ];
  const apiRules: ApiFaultRule[] = [];
  const counters = new Map<string, number>();
  const requestLog: SimRequest[] = [];
  const server: Server = createServer(createRequestHandler({ ctx, engine, routes, publicKey: publicKeyFromPem(publicKeyPem), apiRules, counters, requestLog }));
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('simulator did not bind a TCP port');
  baseUrl = `http://${options.host ?? '127.0.0.1'}:${address.port}`;

  const idle = async (): Promise<void> => {
    while (background.size > 0) await Promise.allSettled([...background]);
    await ctx.deliverer.idle();
    if (background.size > 0) await idle();
  };

  return {
    url: baseUrl,
    appId: state.app.id,
    appSlug: state.app.slug,
    privateKeyPem,
    webhookSecret,
    state,
    faults: createFaults(ctx, engine, apiRules),
    requests: () => [...requestLog],
    counters: {
      get: (key) => counters.get(key) ?? 0,
      snapshot: () => Object.fromEntries(counters),
      total: () => [...counters.values()].reduce((a, b) => a + b, 0),
      reset: () => counters.clear(),
    },
    limits: ctx.limits,
    gitUrl: (owner, name) => `${baseUrl}/${owner}/${name}.git`,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    createInstallation(input) {
      const account = ensureAccount(state, input.account, input.accountType ?? 'Organization');
      const now = new Date().toISOString();
      const installation: SimInstallation = {
        id: nextId(state, 'installation'), account, permissions: input.permissions ?? DEFAULT_PERMISSIONS,
        repositorySelection: input.repositorySelection ?? 'all', repositories: input.repositories ?? [],
        events: ['check_run', 'check_suite', 'push', 'workflow_job', 'workflow_run'], createdAt: now, updatedAt: now,
      };
      state.installations.set(installation.id, installation);
      ctx.deliverer.emit('installation', {
        action: 'created', installation: serializeInstallation(baseUrl, state, installation), repositories: [], requester: null,
        sender: appBotUser(baseUrl, state),
      }, { installationId: installation.id, repositoryId: null });
      return installation;
    },
    async createRepo(input) {
      const repo = await createRepoRecord(ctx, input);
      const sha = await resolveRef(repo.gitDir, `refs/heads/${repo.defaultBranch}`);
      if (sha) await engine.registerWorkflows(repo, sha);
      return repo;
    },
    async commit(fullName, spec) {
      const [owner = '', name = ''] = fullName.split('/');
      const repo = findRepo(state, owner, name);
      if (!repo) throw new Error(`no repository ${fullName}`);
      return commitFiles(repo.gitDir, spec);
    },
    appJwt: () => signAppJwt(state.app.id, privateKeyPem),
    installationToken(installationId, permissions) {
      const installation = state.installations.get(installationId);
      if (!installation) throw new Error(`no installation ${installationId}`);
      return mintToken(state, installation, permissions ?? installation.permissions, options.tokenTtlMs ?? TOKEN_TTL_MS).token;
    },
    clickCheckRunAction: (checkRunId, identifier) => checks.clickAction(checkRunId, identifier),
    rerequestCheckRun: (checkRunId) => checks.rerequest(checkRunId),
    idle,
    async close() {
      for (const run of state.runs.values()) {
        const last = run.attempts[run.attempts.length - 1];
        if (last && last.status === 'in_progress') engine.stop(run, 'cancelled');
      }
      await idle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownsDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
