import { installationCoversRepo } from '../auth.js';
import type { SimContext } from '../context.js';
import { appBotUser, serializeUser } from '../serialize/accounts.js';
import { serializeRepo } from '../serialize/repository.js';
import { nodeId } from '../state.js';
import type { SimInstallation, SimRepo } from '../types.js';

export function installationFor(ctx: SimContext, repo: SimRepo): SimInstallation | undefined {
  for (const installation of ctx.state.installations.values()) if (installationCoversRepo(installation, repo)) return installation;
  return undefined;
}

/** Emits a repository event to the App, with GitHub's envelope; nothing is sent where the App is not installed. */
export function emitRepoEvent(ctx: SimContext, event: string, repo: SimRepo, body: Record<string, unknown>): string | null {
  const installation = installationFor(ctx, repo);
  if (!installation) return null;
  const base = ctx.base();
  const payload: Record<string, unknown> = {
    ...body,
    repository: serializeRepo(base, ctx.state, repo, 1),
    sender: appBotUser(base, ctx.state),
    installation: { id: installation.id, node_id: nodeId('MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9u', installation.id) },
  };
  if (repo.owner.type === 'Organization') payload.organization = serializeOrganization(base, repo.owner.login, repo.owner.id);
  return ctx.deliverer.emit(event, payload, { installationId: installation.id, repositoryId: repo.id });
}

function serializeOrganization(base: string, login: string, id: number): Record<string, unknown> {
  const api = `${base}/orgs/${login}`;
  return {
    login, id, node_id: nodeId('O_', id), url: api, repos_url: `${api}/repos`, events_url: `${api}/events`, hooks_url: `${api}/hooks`,
    issues_url: `${api}/issues`, members_url: `${api}/members{/member}`, public_members_url: `${api}/public_members{/member}`,
    avatar_url: `${base}/avatars/u/${id}?v=4`, description: null,
  };
}

export function senderFor(ctx: SimContext, login: string, id: number): Record<string, unknown> {
  return serializeUser(ctx.base(), { login, id, type: 'User' });
}
