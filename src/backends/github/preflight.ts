import type { Logger } from 'pino';
import type { BenchRepoRepository } from '../../db/index.js';
import { isAppError } from '../../errors.js';
import type { GithubApp } from '../../github/index.js';
import { GITHUB_ACTIONS_CAPABILITIES, preflightWorkflow, type Blocker } from '../../workflows/index.js';
import type { PreflightInput } from '../ci-backend.js';
import { benchRepoName } from './bench-repo.js';

export interface GithubPreflightContext {
  github: GithubApp;
  benchRepos: BenchRepoRepository;
  benchOwner: string;
  logger: Logger;
  /** A benchmark repository synced more recently than this is trusted without API calls (default 6 hours). */
  syncTtlMs?: number;
}

/**
 * GitHub runs everything a workflow may ask for; what can still stop a replay is a secret the benchmark
 * account does not hold (what the standardizer could not replace) and Actions being off on the benchmark
 * repository. A repository synced recently with Actions on costs no API call. Otherwise one
 * `GET .../actions/permissions`: a repository not created yet is no blocker (publishing creates it with
 * Actions on); one with Actions off gets them enabled as publishing would (`PUT`, a fork starts that way), and
 * only GitHub refusing (403, 422: an organization policy, a missing App permission) is a blocker.
 */
export async function githubPreflight(ctx: GithubPreflightContext, input: PreflightInput): Promise<Blocker[]> {
  const blockers = preflightWorkflow({ workflow: input.workflow, callees: input.callees, capabilities: GITHUB_ACTIONS_CAPABILITIES });
  const actions = await actionsBlocker(ctx, { owner: input.instance.repoOwner, name: input.instance.repoName });
  return actions === null ? blockers : [...blockers, actions];
}

const refused = (error: unknown): boolean => isAppError(error) && (error.code === 'github_forbidden' || error.code === 'github_unprocessable');

async function actionsBlocker(ctx: GithubPreflightContext, upstream: { owner: string; name: string }): Promise<Blocker | null> {
  const cached = await ctx.benchRepos.find('github', upstream.owner, upstream.name);
  const ttl = ctx.syncTtlMs ?? 6 * 3_600_000;
  if (cached !== null && cached.actionsEnabled && cached.lastSyncAt !== null && Date.now() - cached.lastSyncAt.getTime() < ttl) return null;
  const owner = cached?.owner ?? ctx.benchOwner;
  const repo = benchRepoName(upstream);
  const client = await ctx.github.installationFor(owner);
  let enabled: boolean;
  try {
    enabled = (await client.request<{ enabled: boolean }>('GET /repos/{owner}/{repo}/actions/permissions', { owner, repo })).data.enabled;
  } catch (error) {
    if (isAppError(error) && error.code === 'github_not_found') return null;
    if (!refused(error)) throw error;
    return disabled(owner, repo, `GitHub refused to show its Actions settings: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (enabled) return null;
  try {
    await client.request('PUT /repos/{owner}/{repo}/actions/permissions', { owner, repo, enabled: true });
    ctx.logger.info({ repo: `${owner}/${repo}` }, 'actions enabled by the preflight');
    return null;
  } catch (error) {
    if (!refused(error)) throw error;
    return disabled(owner, repo, `enabling them was refused: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function disabled(owner: string, repo: string, why: string): Blocker {
  return {
    code: 'actions_disabled',
    job: '*',
    evidence: `${owner}/${repo}`,
    message: `GitHub Actions are disabled on the benchmark repository ${owner}/${repo} and no workflow can run there; ${why}`,
  };
}
