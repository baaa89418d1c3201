import type { Logger } from 'pino';
import type { BenchRepoRepository, BenchRepoRow } from '../../db/index.js';
import { isAppError, transient } from '../../errors.js';
import type { GithubApp, InstallationClient } from '../../github/index.js';

export interface BenchRepoContext {
  github: GithubApp;
  benchRepos: BenchRepoRepository;
  benchOwner: string;
  mode: 'fork' | 'mirror';
  logger: Logger;
  /** How long one call waits for a fork still being created before failing transiently (default 30 s). */
  forkWaitMs?: number;
  /** A repository synced more recently than this is trusted without API calls (default 6 hours). */
  syncTtlMs?: number;
}

export interface Upstream {
  owner: string;
  name: string;
}

/** Owner-qualified name of the benchmark repository of an upstream: `<upstream-owner>--<upstream-name>`. */
export const benchRepoName = (upstream: Upstream): string => `${upstream.owner}--${upstream.name}`;

const DISABLED_STATES = new Set(['disabled_fork', 'disabled_inactivity']);

function isCode(error: unknown, code: string): boolean {
  return isAppError(error) && error.code === code;
}

/**
 * Makes sure the benchmark repository of an upstream exists in BENCH_OWNER and can run workflows: a fork
 * (BENCH_REPO_MODE=fork; POST /forks answers 202 and completes asynchronously, 409 meanwhile) or a plain
 * repository (mirror; the upstream history arrives with the first push), Actions enabled, and workflows
 * disabled by forking or inactivity enabled again. Cached in the bench_repos table for `syncTtlMs`.
 */
export async function ensureBenchRepo(ctx: BenchRepoContext, upstream: Upstream, options: { force?: boolean } = {}): Promise<BenchRepoRow> {
  const cached = await ctx.benchRepos.find('github', upstream.owner, upstream.name);
  const fresh = cached !== null && cached.actionsEnabled && cached.lastSyncAt !== null && Date.now() - cached.lastSyncAt.getTime() < (ctx.syncTtlMs ?? 6 * 3_600_000);
  if (fresh && options.force !== true) return cached;
  const client = await ctx.github.installationFor(ctx.benchOwner);
  const owner = ctx.benchOwner;
  const name = benchRepoName(upstream);
  const log = ctx.logger.child({ repo: `${owner}/${name}` });
  let repo = await getRepo(client, owner, name);
  if (repo === null) {
    if (ctx.mode === 'fork') {
      // `organization` only for an organization; a fork into a user account names no organization.
      const organization = client.accountType === 'User' ? {} : { organization: owner };
      await client.request('POST /repos/{owner}/{repo}/forks', { owner: upstream.owner, repo: upstream.name, ...organization, name, default_branch_only: false });
      log.info({ upstream }, 'fork requested');
    } else {
      try {
        await client.request('POST /orgs/{org}/repos', { org: owner, name, private: false, description: `ci-replay benchmark copy of ${upstream.owner}/${upstream.name}` });
        log.info({ upstream }, 'benchmark repository created');
      } catch (error) {
        if (!isAppError(error) || error.kind !== 'invalid_input') throw error;
      }
    }
    repo = await getRepo(client, owner, name);
    if (repo === null) throw transient('bench_repo_missing', `benchmark repository ${owner}/${name} not visible yet`);
  }
  if (ctx.mode === 'fork' || repo.fork) await waitUntilReady(client, owner, name, ctx.forkWaitMs ?? 30_000);
  await enableActions(client, owner, name, log);
  const row = await ctx.benchRepos.ensure({
    backend: 'github',
    upstreamOwner: upstream.owner,
    upstreamName: upstream.name,
    owner,
    name,
    mode: repo.fork ? 'fork' : 'mirror',
    githubRepoId: BigInt(repo.id),
    actionsEnabled: true,
  });
  await ctx.benchRepos.markSynced(row.id, { actionsEnabled: true, githubRepoId: BigInt(repo.id) });
  return { ...row, actionsEnabled: true, lastSyncAt: new Date() };
}

async function getRepo(client: InstallationClient, owner: string, repo: string): Promise<{ id: number; fork: boolean } | null> {
  try {
    return (await client.request<{ id: number; fork: boolean }>('GET /repos/{owner}/{repo}', { owner, repo })).data;
  } catch (error) {
    if (isCode(error, 'github_not_found')) return null;
    throw error;
  }
}

/** A fork being created answers 409 on the Git data API; waits (bounded) until it answers. */
async function waitUntilReady(client: InstallationClient, owner: string, repo: string, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
    try {
      await client.request('GET /repos/{owner}/{repo}/git/matching-refs/{ref}', { owner, repo, ref: 'heads' });
      return;
    } catch (error) {
      if (!isCode(error, 'github_conflict') && !isCode(error, 'github_not_found')) throw error;
      if (Date.now() + delay > deadline) throw transient('fork_in_progress', `the fork ${owner}/${repo} is still being created`, error);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

async function enableActions(client: InstallationClient, owner: string, repo: string, log: Logger): Promise<void> {
  const permissions = await client.request<{ enabled: boolean }>('GET /repos/{owner}/{repo}/actions/permissions', { owner, repo });
  if (!permissions.data.enabled) {
    await client.request('PUT /repos/{owner}/{repo}/actions/permissions', { owner, repo, enabled: true });
    log.info('actions enabled');
  }
  const workflows = await client.paginate<{ id: number; path: string; state: string }>('GET /repos/{owner}/{repo}/actions/workflows', { owner, repo });
  for (const workflow of workflows) {
    if (!DISABLED_STATES.has(workflow.state)) continue;
    await client.request('PUT /repos/{owner}/{repo}/actions/workflows/{workflow_id}/enable', { owner, repo, workflow_id: workflow.id });
    log.info({ path: workflow.path, state: workflow.state }, 'workflow enabled');
  }
}
