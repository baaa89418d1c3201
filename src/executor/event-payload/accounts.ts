import { createHash } from 'node:crypto';
import type { ContextValue } from '../expressions.js';

type Json = { [key: string]: ContextValue };

/** Where the payload's urls point: html (`https://github.com`) and REST API (`https://api.github.com`). */
export interface UrlBases {
  html: string;
  api: string;
}

/** A stable positive id for a name: the local executor knows no GitHub ids. */
export function stableId(name: string): number {
  return createHash('sha256').update(name).digest().readUInt32BE(0) & 0x3fffffff;
}

/** GitHub's user object (`simple-user`) for a login. */
export function userObject(bases: UrlBases, login: string): Json {
  const api = `${bases.api}/users/${encodeURIComponent(login)}`;
  const id = stableId(`user:${login}`);
  return {
    login, id, node_id: `U_${Buffer.from(`04:User${id}`).toString('base64')}`,
    avatar_url: `${bases.html}/${encodeURIComponent(login)}.png`, gravatar_id: '', url: api,
    html_url: `${bases.html}/${encodeURIComponent(login)}`,
    followers_url: `${api}/followers`, following_url: `${api}/following{/other_user}`, gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`, subscriptions_url: `${api}/subscriptions`, organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`, events_url: `${api}/events{/privacy}`, received_events_url: `${api}/received_events`,
    type: 'User', user_view_type: 'public', site_admin: false,
  };
}

/**
 * GitHub's repository object as webhook payloads carry it: created_at/pushed_at are unix seconds in push
 * payloads (`unixTimes`), ISO strings elsewhere. Counts are zero and the id is {@link stableId} of the full name.
 */
export function repositoryObject(bases: UrlBases, fullName: string, defaultBranch: string, pushedAt: Date, unixTimes: boolean): Json {
  const [owner = '', name = ''] = fullName.split('/');
  const api = `${bases.api}/repos/${fullName}`;
  const html = `${bases.html}/${fullName}`;
  const host = new URL(bases.html).host;
  const id = stableId(`repo:${fullName}`);
  const time = unixTimes ? Math.floor(pushedAt.getTime() / 1000) : pushedAt.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    id, node_id: `R_${Buffer.from(`010:Repository${id}`).toString('base64')}`, name, full_name: fullName, private: false,
    owner: { name: owner, email: null, ...userObject(bases, owner) }, html_url: html, description: null, fork: false, url: api,
    forks_url: `${api}/forks`, keys_url: `${api}/keys{/key_id}`, collaborators_url: `${api}/collaborators{/collaborator}`,
    teams_url: `${api}/teams`, hooks_url: `${api}/hooks`, issue_events_url: `${api}/issues/events{/number}`,
    events_url: `${api}/events`, assignees_url: `${api}/assignees{/user}`, branches_url: `${api}/branches{/branch}`,
    tags_url: `${api}/tags`, blobs_url: `${api}/git/blobs{/sha}`, git_tags_url: `${api}/git/tags{/sha}`,
    git_refs_url: `${api}/git/refs{/sha}`, trees_url: `${api}/git/trees{/sha}`, statuses_url: `${api}/statuses/{sha}`,
    languages_url: `${api}/languages`, stargazers_url: `${api}/stargazers`, contributors_url: `${api}/contributors`,
    subscribers_url: `${api}/subscribers`, subscription_url: `${api}/subscription`, commits_url: `${api}/commits{/sha}`,
    git_commits_url: `${api}/git/commits{/sha}`, comments_url: `${api}/comments{/number}`,
    issue_comment_url: `${api}/issues/comments{/number}`, contents_url: `${api}/contents/{+path}`,
    compare_url: `${api}/compare/{base}...{head}`, merges_url: `${api}/merges`, archive_url: `${api}/{archive_format}{/ref}`,
    downloads_url: `${api}/downloads`, issues_url: `${api}/issues{/number}`, pulls_url: `${api}/pulls{/number}`,
    milestones_url: `${api}/milestones{/number}`, notifications_url: `${api}/notifications{?since,all,participating}`,
    labels_url: `${api}/labels{/name}`, releases_url: `${api}/releases{/id}`, deployments_url: `${api}/deployments`,
    created_at: time, updated_at: pushedAt.toISOString().replace(/\.\d{3}Z$/, 'Z'), pushed_at: time,
    git_url: `git://${host}/${fullName}.git`, ssh_url: `git@${host}:${fullName}.git`, clone_url: `${html}.git`, svn_url: html,
    homepage: null, size: 0, stargazers_count: 0, watchers_count: 0, language: null, has_issues: true, has_projects: true,
    has_downloads: true, has_wiki: true, has_pages: false, has_discussions: false, forks_count: 0, mirror_url: null,
    archived: false, disabled: false, open_issues_count: 0, license: null, allow_forking: true, is_template: false,
    web_commit_signoff_required: false, topics: [], visibility: 'public', forks: 0, open_issues: 0, watchers: 0,
    default_branch: defaultBranch, stargazers: 0, master_branch: defaultBranch,
  };
}
