import { nodeId } from '../state.js';
import type { SimAccount, SimInstallation, SimState } from '../types.js';

export function serializeUser(base: string, account: SimAccount): Record<string, unknown> {
  const login = encodeURIComponent(account.login);
  const api = `${base}/users/${login}`;
  return {
    login: account.login,
    id: account.id,
    node_id: nodeId(account.type === 'Organization' ? 'O_' : 'U_', account.id),
    avatar_url: `${base}/avatars/u/${account.id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: `${base}/${login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: account.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

/** The App's bot user (the sender of events the App causes). */
export function appBotUser(base: string, state: SimState): Record<string, unknown> {
  return serializeUser(base, { login: `${state.app.slug}[bot]`, id: state.app.id + 41_000_000, type: 'Bot' });
}

export function serializeApp(base: string, state: SimState): Record<string, unknown> {
  return {
    id: state.app.id,
    slug: state.app.slug,
    client_id: state.app.clientId,
    node_id: state.app.nodeId,
    owner: serializeUser(base, state.app.owner),
    name: state.app.name,
    description: 'Replays CI for candidate patches',
    external_url: base,
    html_url: `${base}/apps/${state.app.slug}`,
    created_at: state.app.createdAt,
    updated_at: state.app.createdAt,
    permissions: { actions: 'write', checks: 'write', contents: 'write', metadata: 'read', workflows: 'write', administration: 'write' },
    events: ['check_run', 'check_suite', 'push', 'workflow_job', 'workflow_run'],
    installations_count: state.installations.size,
  };
}

export function serializeInstallation(base: string, state: SimState, installation: SimInstallation): Record<string, unknown> {
  return {
    id: installation.id,
    client_id: state.app.clientId,
    account: serializeUser(base, installation.account),
    repository_selection: installation.repositorySelection,
    access_tokens_url: `${base}/app/installations/${installation.id}/access_tokens`,
    repositories_url: `${base}/installation/repositories`,
    html_url: `${base}/organizations/${installation.account.login}/settings/installations/${installation.id}`,
    app_id: state.app.id,
    app_slug: state.app.slug,
    target_id: installation.account.id,
    target_type: installation.account.type,
    permissions: installation.permissions,
    events: installation.events,
    created_at: installation.createdAt,
    updated_at: installation.updatedAt,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    suspended_by: null,
    suspended_at: null,
  };
}
