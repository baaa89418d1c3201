import type { Logger } from 'pino';
import type { GithubAppConfig } from '../../config.js';
import type { Repositories } from '../../db/index.js';
import { createGithubApp, createMemoryRateBudget, createRedisRateBudget, type GithubApp } from '../../github/index.js';
import type { RouteRegistrar } from '../../http/app.js';
import { githubWebhookRoutes } from '../../http/routes/github-webhooks.js';
import type { DeliveryHook } from '../../pipeline/deliveries.js';
import type { PipelineDeps } from '../../pipeline/context.js';
import { createRedis, type Queues } from '../../queue/index.js';
import type { CiBackend } from '../ci-backend.js';
import { createGithubBackend } from './index.js';
import { reconcileGithubSubmission, redeliverFailedDeliveries } from './reconcile.js';
import { rerunDeliveryHook } from './rerun-hook.js';
import { syncBenchRepos, type SyncOutcome } from './sync.js';

export interface GithubPartsOptions {
  repos: Repositories;
  queues: Pick<Queues, 'addBulk'>;
  logger: Logger;
  publicUrl: string;
  /** With a Redis URL the rate-limit budget is shared by every process (keys under `queuePrefix`). */
  redisUrl?: string;
  queuePrefix?: string;
  /** Tests: shorter retry waits and write spacing, shorter fork wait. */
  tuning?: { retryAfterBaseMs?: number; writeIntervalMs?: number; forkWaitMs?: number; retries?: number };
}

export interface GithubParts {
  backend: CiBackend;
  routes: RouteRegistrar[];
  deliveryHooks: DeliveryHook[];
  github: GithubApp;
  /** Maintenance: fetch runs of a published/running submission from the API, then the generic reconcile. */
  reconcileSubmission(pipeline: PipelineDeps, submissionId: string, logger: Logger): Promise<void>;
  /** Maintenance: redeliver failed webhook deliveries never recorded here. */
  redeliverFailed(options?: { since?: Date }): Promise<number>;
  /** `ci-replay repos sync [--instance <id> | --all]`. */
  syncBenchRepos(selector: { instanceId: string } | { all: true }): Promise<SyncOutcome[]>;
  close(): Promise<void>;
}

/** Everything CI_BACKEND=github adds to the composition root. */
export function createGithubParts(config: GithubAppConfig, options: GithubPartsOptions): GithubParts {
  const redis = options.redisUrl === undefined ? null : createRedis(options.redisUrl, 'producer');
  const budget = redis === null ? createMemoryRateBudget() : createRedisRateBudget(redis, options.queuePrefix ?? 'ci-replay');
  const tuning = options.tuning ?? {};
  const github = createGithubApp({
    appId: config.appId,
    privateKey: config.privateKey,
    baseUrl: config.apiUrl,
    logger: options.logger,
    budget,
    // A pool account's own budget (BenchAccount.restPerHour / writesPerMinute), counted ahead in Redis.
    limits: async ({ installationId, account }) => {
      const row = (await options.repos.benchAccounts.list()).find((found) => found.state !== 'removed' && (found.installationId === BigInt(installationId) || (account !== null && found.owner.toLowerCase() === account.toLowerCase())));
      return row === undefined ? null : { restPerHour: row.restPerHour, writesPerMinute: row.writesPerMinute };
    },
    ...(tuning.retries !== undefined ? { retries: tuning.retries } : {}),
    ...(tuning.retryAfterBaseMs !== undefined ? { retryAfterBaseMs: tuning.retryAfterBaseMs } : {}),
    ...(tuning.writeIntervalMs !== undefined ? { writeIntervalMs: tuning.writeIntervalMs } : {}),
  });
  const repoOptions = { benchOwner: config.benchOwner, mode: config.repoMode, ...(tuning.forkWaitMs !== undefined ? { forkWaitMs: tuning.forkWaitMs } : {}) };
  const backend = createGithubBackend({ github, benchRepos: options.repos.benchRepos, logger: options.logger, gitUrl: config.gitUrl, publicUrl: options.publicUrl, ...repoOptions });
  return {
    backend,
    routes: [githubWebhookRoutes({ webhookSecret: config.webhookSecret, queues: options.queues, logger: options.logger })],
    deliveryHooks: [rerunDeliveryHook],
    github,
    reconcileSubmission: (pipeline, submissionId, logger) => reconcileGithubSubmission({ ...pipeline, github, benchOwner: config.benchOwner }, submissionId, logger),
    redeliverFailed: (redeliver = {}) => redeliverFailedDeliveries({ github, repos: options.repos, logger: options.logger }, redeliver),
    syncBenchRepos: (selector) => syncBenchRepos({ github, repos: options.repos, logger: options.logger, ...repoOptions }, selector),
    async close() {
      redis?.disconnect();
    },
  };
}
