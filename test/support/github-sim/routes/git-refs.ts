import type { SimContext } from '../context.js';
import { git } from '../git/git-cli.js';
import { isAncestor, listRefs, ZERO_SHA } from '../git/bare-repo.js';
import { notFoundError, validationError } from '../http/gh-error.js';
import { route, type Route } from '../http/router.js';
import type { Engine } from '../runs/engine.js';
import { handlePush } from '../runs/on-push.js';
import { nodeId } from '../state.js';
import type { SimRepo } from '../types.js';
import { readyRepoFrom } from './repos.js';

async function serializeRef(ctx: SimContext, repo: SimRepo, ref: string, sha: string): Promise<Record<string, unknown>> {
  const type = (await git(['cat-file', '-t', sha], { cwd: repo.gitDir })).stdout.trim() || 'commit';
  const api = `${ctx.base()}/repos/${repo.fullName}/git`;
  return {
    ref,
    node_id: nodeId('REF_', Number.parseInt(sha.slice(0, 8), 16)),
    url: `${api}/${ref}`,
    object: { sha, type, url: `${api}/${type === 'tag' ? 'tags' : 'commits'}/${sha}` },
  };
}

export function gitRefRoutes(ctx: SimContext, engine: Engine): Route[] {
  return [
    route('GET', '/repos/{owner}/{repo}/git/ref/{ref}', async (req) => {
      const repo = readyRepoFrom(ctx, req, 'contents', 'read');
      const full = `refs/${req.params.ref ?? ''}`;
      const sha = (await listRefs(repo.gitDir)).get(full);
      if (!sha) throw notFoundError();
      return { status: 200, body: await serializeRef(ctx, repo, full, sha) };
    }),
    route('GET', '/repos/{owner}/{repo}/git/matching-refs/{ref}', async (req) => {
      const repo = readyRepoFrom(ctx, req, 'contents', 'read');
      const prefix = `refs/${req.params.ref ?? ''}`;
      const refs = [...(await listRefs(repo.gitDir)).entries()].filter(([ref]) => ref.startsWith(prefix)).sort(([a], [b]) => a.localeCompare(b));
      return { status: 200, body: await Promise.all(refs.map(([ref, sha]) => serializeRef(ctx, repo, ref, sha))) };
    }),
    route('POST', '/repos/{owner}/{repo}/git/refs', async (req) => {
      const repo = readyRepoFrom(ctx, req, 'contents', 'write');
      const { ref, sha } = req.body;
      if (typeof ref !== 'string' || typeof sha !== 'string') throw validationError('Invalid request.\n\n"ref", "sha" weren\'t supplied.');
      if (!/^refs\/[^/]+\/.+/.test(ref)) throw validationError("ref must be fully qualified and start with 'refs' and have at least two slashes");
      const refs = await listRefs(repo.gitDir);
      if (refs.has(ref)) throw validationError('Reference already exists');
      if ((await git(['cat-file', '-e', `${sha}^{commit}`], { cwd: repo.gitDir })).code !== 0) throw validationError('Object does not exist');
      await git(['update-ref', ref, sha], { cwd: repo.gitDir });
      await handlePush(ctx, engine, repo, [{ ref, before: ZERO_SHA, after: sha }]);
      return { status: 201, body: await serializeRef(ctx, repo, ref, sha), headers: { location: `${ctx.base()}/repos/${repo.fullName}/git/${ref}` } };
    }),
    route('PATCH', '/repos/{owner}/{repo}/git/refs/{ref}', async (req) => {
      const repo = readyRepoFrom(ctx, req, 'contents', 'write');
      const full = `refs/${req.params.ref ?? ''}`;
      const sha = req.body.sha;
      if (typeof sha !== 'string') throw validationError('Invalid request.\n\n"sha" wasn\'t supplied.');
      const before = (await listRefs(repo.gitDir)).get(full);
      if (!before) throw validationError('Reference does not exist');
      if ((await git(['cat-file', '-e', `${sha}^{commit}`], { cwd: repo.gitDir })).code !== 0) throw validationError('Object does not exist');
      if (req.body.force !== true && !(await isAncestor(repo.gitDir, before, sha))) throw validationError('Update is not a fast forward');
      await git(['update-ref', full, sha], { cwd: repo.gitDir });
      if (before !== sha) await handlePush(ctx, engine, repo, [{ ref: full, before, after: sha }]);
      return { status: 200, body: await serializeRef(ctx, repo, full, sha) };
    }),
    route('DELETE', '/repos/{owner}/{repo}/git/refs/{ref}', async (req) => {
      const repo = readyRepoFrom(ctx, req, 'contents', 'write');
      const full = `refs/${req.params.ref ?? ''}`;
      const before = (await listRefs(repo.gitDir)).get(full);
      if (!before) throw validationError('Reference does not exist');
      await git(['update-ref', '-d', full], { cwd: repo.gitDir });
      await handlePush(ctx, engine, repo, [{ ref: full, before, after: ZERO_SHA }]);
      return { status: 204 };
    }),
  ];
}
