import { findRepoById, nodeId } from '../state.js';
import type { SimRepo, SimState } from '../types.js';
import { serializeUser } from './accounts.js';

/** GitHub's repository object (the `full-repository` shape, a superset of the others). */
export function serializeRepo(base: string, state: SimState, repo: SimRepo, depth = 0): Record<string, unknown> {
  const api = `${base}/repos/${repo.fullName}`;
  const gitHost = new URL(base).host;
  const forks = [...state.repos.values()].filter((r) => r.parentId === repo.id).length;
  const body: Record<string, unknown> = {
    id: repo.id,
    node_id: nodeId('R_', repo.id),
    name: repo.name,
    full_name: repo.fullName,
    private: repo.private,
    owner: serializeUser(base, repo.owner),
    html_url: `${base}/${repo.fullName}`,
    description: repo.description,
    fork: repo.parentId !== null,
    url: api,
    forks_url: `${api}/forks`,
    keys_url: `${api}/keys{/key_id}`,
    collaborators_url: `${api}/collaborators{/collaborator}`,
    teams_url: `${api}/teams`,
    hooks_url: `${api}/hooks`,
    issue_events_url: `${api}/issues/events{/number}`,
    events_url: `${api}/events`,
    assignees_url: `${api}/assignees{/user}`,
    branches_url: `${api}/branches{/branch}`,
    tags_url: `${api}/tags`,
    blobs_url: `${api}/git/blobs{/sha}`,
    git_tags_url: `${api}/git/tags{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`,
    trees_url: `${api}/git/trees{/sha}`,
    statuses_url: `${api}/statuses/{sha}`,
    languages_url: `${api}/languages`,
    stargazers_url: `${api}/stargazers`,
    contributors_url: `${api}/contributors`,
    subscribers_url: `${api}/subscribers`,
    subscription_url: `${api}/subscription`,
    commits_url: `${api}/commits{/sha}`,
    git_commits_url: `${api}/git/commits{/sha}`,
    comments_url: `${api}/comments{/number}`,
    issue_comment_url: `${api}/issues/comments{/number}`,
    contents_url: `${api}/contents/{+path}`,
    compare_url: `${api}/compare/{base}...{head}`,
    merges_url: `${api}/merges`,
    archive_url: `${api}/{archive_format}{/ref}`,
    downloads_url: `${api}/downloads`,
    issues_url: `${api}/issues{/number}`,
    pulls_url: `${api}/pulls{/number}`,
    milestones_url: `${api}/milestones{/number}`,
    notifications_url: `${api}/notifications{?since,all,participating}`,
    labels_url: `${api}/labels{/name}`,
    releases_url: `${api}/releases{/id}`,
    deployments_url: `${api}/deployments`,
    created_at: repo.createdAt,
    updated_at: repo.updatedAt,
    pushed_at: repo.pushedAt,
    git_url: `git://${gitHost}/${repo.fullName}.git`,
    ssh_url: `git@${gitHost}:${repo.fullName}.git`,
    clone_url: `${base}/${repo.fullName}.git`,
    svn_url: `${base}/${repo.fullName}`,
    homepage: null,
    size: 0,
    stargazers_count: 0,
    watchers_count: 0,
    language: null,
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: forks,
    mirror_url: null,
    archived: false,
    disabled: false,
    open_issues_count: 0,
    license: null,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: [],
    visibility: repo.private ? 'private' : 'public',
    forks,
    open_issues: 0,
    watchers: 0,
    default_branch: repo.defaultBranch,
    permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
    network_count: forks,
    subscribers_count: 0,
  };
  if (depth === 0 && repo.parentId !== null) {
    const parent = findRepoById(state, repo.parentId);
    const source = repo.sourceId === null ? parent : findRepoById(state, repo.sourceId);
    if (parent) body.parent = serializeRepo(base, state, parent, 1);
    if (source) body.source = serializeRepo(base, state, source, 1);
  }
  return body;
}

/** The `minimal-repository` shape used inside workflow runs. */
export function serializeMinimalRepo(base: string, state: SimState, repo: SimRepo): Record<string, unknown> {
  const full = serializeRepo(base, state, repo, 1);
  const keep = new Set(['id', 'node_id', 'name', 'full_name', 'owner', 'private', 'html_url', 'description', 'fork', 'url']);
  return Object.fromEntries(Object.entries(full).filter(([key]) => keep.has(key) || key.endsWith('_url')));
}
