import { hasPermission, installationCoversRepo, mintToken, requireApp, requireInstallation } from '../auth.js';
import type { SimContext } from '../context.js';
import { notFoundError, validationError } from '../http/gh-error.js';
import { paginate } from '../http/paginate.js';
import { route, type Route } from '../http/router.js';
import { serializeApp, serializeInstallation } from '../serialize/accounts.js';
import { serializeRepo } from '../serialize/repository.js';
import { findRepo } from '../state.js';
import type { Permissions, SimDelivery } from '../types.js';
import { installationFor } from '../webhooks/payloads.js';

export const TOKEN_TTL_MS = 60 * 60 * 1000;

function deliveryItem(d: SimDelivery): Record<string, unknown> {
  return {
    id: d.id, guid: d.guid, delivered_at: d.deliveredAt, redelivery: d.redelivery, duration: d.duration, status: d.status,
    status_code: d.statusCode, event: d.event, action: d.action, installation_id: d.installationId, repository_id: d.repositoryId, throttled_at: null,
  };
}

export function appRoutes(ctx: SimContext, tokenTtlMs: () => number): Route[] {
  const { state } = ctx;
  const installationById = (id: string) => {
    const installation = state.installations.get(Number(id));
    if (!installation) throw notFoundError();
    return installation;
  };
  return [
    route('GET', '/app', ({ auth }) => {
      requireApp(auth);
      return { status: 200, body: serializeApp(ctx.base(), state) };
    }),
    route('GET', '/app/installations', ({ auth, query }) => {
      requireApp(auth);
      const all = [...state.installations.values()].map((i) => serializeInstallation(ctx.base(), state, i));
      const { page, headers } = paginate(all, query, `${ctx.base()}/app/installations`);
      return { status: 200, body: page, headers };
    }),
    route('GET', '/app/installations/{installation_id}', ({ auth, params }) => {
      requireApp(auth);
      return { status: 200, body: serializeInstallation(ctx.base(), state, installationById(params.installation_id ?? '')) };
    }),
    route('GET', '/repos/{owner}/{repo}/installation', ({ auth, params }) => {
      requireApp(auth);
      const repo = findRepo(state, params.owner ?? '', params.repo ?? '');
      const installation = repo ? installationFor(ctx, repo) : undefined;
      if (!installation) throw notFoundError();
      return { status: 200, body: serializeInstallation(ctx.base(), state, installation) };
    }),
    route('POST', '/app/installations/{installation_id}/access_tokens', ({ auth, params, body }) => {
      requireApp(auth);
      const installation = installationById(params.installation_id ?? '');
      const requested = (body.permissions ?? null) as Permissions | null;
      if (requested) {
        for (const [name, level] of Object.entries(requested)) {
          if (!hasPermission(installation.permissions, name, level === 'admin' ? 'write' : level)) {
            throw validationError(`The permissions requested are not granted to this installation.`);
          }
        }
      }
      const permissions: Permissions = requested ?? installation.permissions;
      const repoNames = Array.isArray(body.repositories) ? body.repositories.map(String) : null;
      const repositories = repoNames?.map((name) => findRepo(state, installation.account.login, name));
      if (repositories?.some((r) => r === undefined || !installationCoversRepo(installation, r))) {
        throw validationError('There is at least one repository that does not exist or is not accessible to the parent installation.');
      }
      const found = (repositories ?? []).filter((r) => r !== undefined);
      const token = mintToken(state, installation, permissions, tokenTtlMs(), Date.now(), repositories ? found.map((r) => r.fullName) : null);
      return {
        status: 201,
        body: {
          token: token.token,
          expires_at: new Date(token.expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          permissions,
          repository_selection: repositories ? 'selected' : installation.repositorySelection,
          ...(repositories ? { repositories: found.map((r) => serializeRepo(ctx.base(), state, r, 1)) } : {}),
        },
      };
    }),
    route('GET', '/installation/repositories', ({ auth, query }) => {
      const { installation } = requireInstallation(auth);
      const repos = [...state.repos.values()].filter((r) => r.owner.login.toLowerCase() === installation.account.login.toLowerCase()
        && (installation.repositorySelection === 'all' || installation.repositories.some((n) => n.toLowerCase() === r.fullName.toLowerCase())));
      const { page, headers } = paginate(repos, query, `${ctx.base()}/installation/repositories`);
      return { status: 200, body: { total_count: repos.length, repository_selection: installation.repositorySelection, repositories: page.map((r) => serializeRepo(ctx.base(), state, r, 1)) }, headers };
    }),
    route('GET', '/app/hook/deliveries', ({ auth, query }) => {
      requireApp(auth);
      const perPage = Math.min(100, Math.max(1, Number.parseInt(query.get('per_page') ?? '30', 10) || 30));
      const cursor = query.get('cursor');
      const before = cursor ? Number.parseInt(cursor.replace(/^v1_/, ''), 10) : Number.POSITIVE_INFINITY;
      const status = query.get('status');
      const matching = [...state.deliveries]
        .sort((a, b) => b.id - a.id)
        .filter((d) => d.id < before)
        .filter((d) => !status || (status === 'success' ? d.statusCode >= 200 && d.statusCode < 300 : d.statusCode < 200 || d.statusCode >= 300));
      const page = matching.slice(0, perPage);
      const headers: Record<string, string> = {};
      const lastItem = page[page.length - 1];
      if (matching.length > perPage && lastItem) {
        const url = new URL(`${ctx.base()}/app/hook/deliveries`);
        url.searchParams.set('per_page', String(perPage));
        if (status) url.searchParams.set('status', status);
        url.searchParams.set('cursor', `v1_${lastItem.id}`);
        headers.link = `<${url.toString()}>; rel="next"`;
      }
      return { status: 200, body: page.map(deliveryItem), headers };
    }),
    route('GET', '/app/hook/deliveries/{delivery_id}', ({ auth, params }) => {
      requireApp(auth);
      const delivery = state.deliveries.find((d) => d.id === Number(params.delivery_id));
      if (!delivery) throw notFoundError();
      return {
        status: 200,
        body: {
          ...deliveryItem(delivery),
          url: '',
          request: { headers: delivery.requestHeaders, payload: delivery.payload },
          response: { headers: delivery.responseHeaders, payload: delivery.responseBody },
        },
      };
    }),
    route('POST', '/app/hook/deliveries/{delivery_id}/attempts', ({ auth, params }) => {
      requireApp(auth);
      if (!ctx.deliverer.redeliver(Number(params.delivery_id))) throw notFoundError();
      return { status: 202, body: {} };
    }),
  ];
}
