import { hasPermission, requireInstallation, requireRepoAccess } from '../auth.js';
import type { SimContext } from '../context.js';
import { git } from '../git/git-cli.js';
import { isAncestor, listRefs, resolveRef } from '../git/bare-repo.js';
import { GhError, notFoundError, validationError } from '../http/gh-error.js';
import { route, type Route, type SimRequest } from '../http/router.js';
import { createRepoRecord, forkRepo } from '../repos.js';
import type { Engine } from '../runs/engine.js';
import { handlePush } from '../runs/on-push.js';
import { serializeRepo } from '../serialize/repository.js';
import { findRepo, findRepoById, isReady } from '../state.js';
import type { SimRepo } from '../types.js';

export const BEING_CREATED = (): GhError => new GhError(409, 'Git Repository is empty.', { documentationUrl: 'https://docs.github.com/rest/git' });

export function repoFrom(ctx: SimContext, req: SimRequest, permission: string, level: 'read' | 'write'): SimRepo {
  return requireRepoAccess(req.auth, findRepo(ctx.state, req.params.owner ?? '', req.params.repo ?? ''), permission, level);
}

export function readyRepoFrom(ctx: SimContext, req: SimRequest, permission: string, level: 'read' | 'write'): SimRepo {
  const repo = repoFrom(ctx, req, permission, level);
  if (!isReady(repo)) throw BEING_CREATED();
  return repo;
}

export function repoRoutes(ctx: SimContext, engine: Engine): Route[] {
  const { state } = ctx;
  return [
    route('GET', '/repos/{owner}/{repo}', (req) => ({ status: 200, body: serializeRepo(ctx.base(), state, repoFrom(ctx, req, 'metadata', 'read')) })),
    route('POST', '/orgs/{org}/repos', async ({ auth, params, body }) => {
      const { installation, token } = requireInstallation(auth);
      if (installation.account.login.toLowerCase() !== (params.org ?? '').toLowerCase()) throw notFoundError();
      if (!hasPermission(token.permissions, 'administration', 'write')) throw new GhError(403, 'Resource not accessible by integration');
      if (typeof body.name !== 'string' || body.name === '') throw validationError('Repository creation failed.', [{ resource: 'Repository', code: 'missing_field', field: 'name' }]);
      const repo = await createRepoRecord(ctx, {
        owner: installation.account.login, name: body.name, private: body.private === true || body.visibility === 'private',
        description: typeof body.description === 'string' ? body.description : null,
        ...(body.auto_init === true ? { files: { 'README.md': `# ${body.name}\n` } } : {}),
      });
      return { status: 201, body: serializeRepo(ctx.base(), state, repo) };
    }),
    route('POST', '/repos/{owner}/{repo}/forks', async (req) => {
      const source = repoFrom(ctx, req, 'metadata', 'read');
      const { installation } = requireInstallation(req.auth);
      const target = typeof req.body.organization === 'string' ? req.body.organization : installation.account.login;
      if (installation.account.login.toLowerCase() !== target.toLowerCase() || installation.repositorySelection !== 'all') {
        throw new GhError(403, 'Resource not accessible by integration');
      }
      if (!hasPermission(installation.permissions, 'administration', 'write')) throw new GhError(403, 'Resource not accessible by integration');
      const name = typeof req.body.name === 'string' ? req.body.name : source.name;
      // A fork's workflows start disabled (GitHub: "Workflows aren't being run on this forked repository").
      const fork = await forkRepo(ctx, source, target, name, req.body.default_branch_only === true, async (created) => {
        const sha = await resolveRef(created.gitDir, `refs/heads/${created.defaultBranch}`);
        if (!sha) return;
        const found = await engine.registerWorkflows(created, sha, 'disabled_fork');
        if (found.length > 0) created.actionsEnabled = false;
      });
      return { status: 202, body: serializeRepo(ctx.base(), state, fork) };
    }),
    route('POST', '/repos/{owner}/{repo}/merge-upstream', async (req) => {
      const fork = readyRepoFrom(ctx, req, 'contents', 'write');
      const branch = typeof req.body.branch === 'string' ? req.body.branch : '';
      if (!branch) throw validationError('Invalid request.\n\n"branch" wasn\'t supplied.');
      const parent = fork.parentId === null ? undefined : findRepoById(state, fork.parentId);
      if (!parent) throw validationError('This repository is not a fork.');
      const upstreamSha = await resolveRef(parent.gitDir, `refs/heads/${branch}`);
      if (!upstreamSha) throw validationError('Branch not found in upstream');
      const fetched = await git(['fetch', '-q', parent.gitDir, upstreamSha], { cwd: fork.gitDir });
      if (fetched.code !== 0) throw new GhError(500, 'Merge upstream failed');
      const before = (await listRefs(fork.gitDir)).get(`refs/heads/${branch}`) ?? null;
      const base = `${parent.owner.login}:${branch}`;
      if (before && (await isAncestor(fork.gitDir, upstreamSha, before))) {
        return { status: 200, body: { message: 'This branch is not behind the upstream', merge_type: 'none', base_branch: base } };
      }
      if (before && !(await isAncestor(fork.gitDir, before, upstreamSha))) throw new GhError(409, 'There are merge conflicts');
      await git(['update-ref', `refs/heads/${branch}`, upstreamSha], { cwd: fork.gitDir });
      await handlePush(ctx, engine, fork, [{ ref: `refs/heads/${branch}`, before: before ?? '0'.repeat(40), after: upstreamSha }]);
      return { status: 200, body: { message: `Successfully fetched and fast-forwarded from upstream ${base}.`, merge_type: 'fast-forward', base_branch: base } };
    }),
    route('GET', '/repos/{owner}/{repo}/contents/{path}', async (req) => {
      const repo = readyRepoFrom(ctx, req, 'contents', 'read');
      const ref = req.query.get('ref') ?? repo.defaultBranch;
      const path = req.params.path ?? '';
      const blob = await git(['rev-parse', '--verify', '-q', `${ref}:${path}`], { cwd: repo.gitDir });
      if (blob.code !== 0) throw notFoundError();
      const sha = blob.stdout.trim();
      const content = await git(['cat-file', 'blob', sha], { cwd: repo.gitDir });
      if (content.code !== 0) throw notFoundError();
      const api = `${ctx.base()}/repos/${repo.fullName}/contents/${path}`;
      const html = `${ctx.base()}/${repo.fullName}/blob/${ref}/${path}`;
      const gitUrl = `${ctx.base()}/repos/${repo.fullName}/git/blobs/${sha}`;
      return {
        status: 200,
        body: {
          type: 'file', encoding: 'base64', size: Buffer.byteLength(content.stdout), name: path.split('/').pop() ?? path, path,
          content: Buffer.from(content.stdout).toString('base64'), sha, url: `${api}?ref=${ref}`, git_url: gitUrl, html_url: html,
          download_url: `${ctx.base()}/raw/${repo.fullName}/${ref}/${path}`, _links: { self: `${api}?ref=${ref}`, git: gitUrl, html },
        },
      };
    }),
  ];
}
