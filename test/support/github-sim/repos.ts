import { join } from 'node:path';
import type { SimContext } from './context.js';
import { cloneBare, commitFiles, initBareRepo } from './git/bare-repo.js';
import { GhError } from './http/gh-error.js';
import { ensureAccount, findRepo, nextId, repoKey } from './state.js';
import type { SimRepo } from './types.js';

export interface CreateRepoOptions {
  owner: string;
  name: string;
  private?: boolean;
  defaultBranch?: string;
  description?: string | null;
  /** Files of an initial commit on the default branch (none: an empty repository). */
  files?: Record<string, string>;
  message?: string;
}

export async function createRepoRecord(ctx: SimContext, options: CreateRepoOptions): Promise<SimRepo> {
  if (findRepo(ctx.state, options.owner, options.name)) throw new GhError(422, 'Repository creation failed.', { extra: { errors: [{ resource: 'Repository', code: 'custom', field: 'name', message: 'name already exists on this account' }] } });
  const owner = ensureAccount(ctx.state, options.owner);
  const id = nextId(ctx.state, 'repo');
  const defaultBranch = options.defaultBranch ?? 'main';
  const gitDir = join(ctx.dataDir, 'repos', `${id}.git`);
  await initBareRepo(gitDir, defaultBranch);
  const now = new Date().toISOString();
  const repo: SimRepo = {
    id, owner, name: options.name, fullName: `${owner.login}/${options.name}`, gitDir, defaultBranch,
    private: options.private ?? false, description: options.description ?? null, parentId: null, sourceId: null,
    createdAt: now, updatedAt: now, pushedAt: now, readyAt: null, actionsEnabled: true, workflows: [],
  };
  if (options.files) await commitFiles(gitDir, { files: options.files, message: options.message ?? 'Initial commit', branch: defaultBranch });
  ctx.state.repos.set(repoKey(owner.login, options.name), repo);
  return repo;
}

/**
 * Starts an asynchronous fork: the record exists at once; the git data becomes available `forkDelayMs` after the
 * copy and `setUp` (the fork's initial state, e.g. its workflows disabled) are done, so no request ever sees a fork
 * whose git data is there but whose initial state is not yet. A second request for the same fork returns it as is.
 */
export async function forkRepo(
  ctx: SimContext, source: SimRepo, owner: string, name: string, defaultBranchOnly: boolean, setUp: (fork: SimRepo) => Promise<void> = async () => undefined,
): Promise<SimRepo> {
  const existing = findRepo(ctx.state, owner, name);
  if (existing && existing.parentId === source.id) return existing;
  if (existing) throw new GhError(422, 'Repository creation failed.', { extra: { errors: [{ resource: 'Repository', code: 'custom', field: 'name', message: 'name already exists on this account' }] } });
  const account = ensureAccount(ctx.state, owner);
  const id = nextId(ctx.state, 'repo');
  const gitDir = join(ctx.dataDir, 'repos', `${id}.git`);
  const now = new Date().toISOString();
  const fork: SimRepo = {
    id, owner: account, name, fullName: `${account.login}/${name}`, gitDir, defaultBranch: source.defaultBranch,
    private: source.private, description: source.description, parentId: source.id, sourceId: source.sourceId ?? source.id,
    createdAt: now, updatedAt: now, pushedAt: source.pushedAt,
    readyAt: Number.POSITIVE_INFINITY,
    actionsEnabled: true, workflows: [],
  };
  ctx.state.repos.set(repoKey(account.login, name), fork);
  await cloneBare(source.gitDir, gitDir, defaultBranchOnly ? source.defaultBranch : null);
  await setUp(fork);
  if (!ctx.stuckForks.has(source.fullName.toLowerCase())) fork.readyAt = Date.now() + ctx.forkDelayMs;
  return fork;
}
