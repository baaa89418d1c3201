import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ContextValue } from '../expressions.js';
import type { UrlBases } from './accounts.js';
import { repositoryObject, userObject } from './accounts.js';
import type { CommitInfo } from './git-commit.js';
import { readCommit, readDefaultBranch } from './git-commit.js';

/** The webhook payload of the run's triggering event: `github.event` and the GITHUB_EVENT_PATH file. */
export type EventPayload = { [key: string]: ContextValue };

export interface EventSource {
  gitDir: string;
  fullName: string;
  sha: string;
  /** Full ref, e.g. `refs/heads/main`. */
  ref: string;
  eventName: string;
  workflowPath: string;
  /** Base of html urls; `https://github.com` when absent. */
  htmlBaseUrl?: string;
  /** `workflow_dispatch` inputs (declared defaults); null when the workflow declares none. */
  dispatchInputs?: Record<string, string> | null;
  now: () => Date;
}

const ZERO_SHA = '0'.repeat(40);

function commitObject(bases: UrlBases, fullName: string, commit: CommitInfo): EventPayload {
  const person = (p: CommitInfo['author']): EventPayload => ({ name: p.name, email: p.email, date: p.date });
  return {
    id: commit.sha, tree_id: commit.tree, distinct: true, message: commit.message, timestamp: commit.committer.date,
    url: `${bases.html}/${fullName}/commit/${commit.sha}`, author: person(commit.author), committer: person(commit.committer),
    added: commit.added, removed: commit.removed, modified: commit.modified,
  };
}

/**
 * The payload GitHub sends for `push` (the run's commit as the one pushed commit, `before` its first parent or
 * zeros for a root commit) or `workflow_dispatch`. Any other event gets only `repository` and `sender`.
 * Commit fields come from `gitDir`; when it cannot be read (a URL source) the push has no commits.
 */
export async function buildEventPayload(source: EventSource): Promise<EventPayload> {
  const bases: UrlBases = { html: (source.htmlBaseUrl ?? 'https://github.com').replace(/\/+$/, ''), api: 'https://api.github.com' };
  const [commit, defaultBranch] = await Promise.all([readCommit(source.gitDir, source.sha), readDefaultBranch(source.gitDir)]);
  const owner = source.fullName.split('/')[0] ?? '';
  const pushedAt = commit === null ? source.now() : new Date(commit.committer.date);
  const branch = source.ref.replace(/^refs\/(heads|tags)\//, '');
  const repository = repositoryObject(bases, source.fullName, defaultBranch ?? branch, pushedAt, source.eventName === 'push');
  const sender = userObject(bases, owner);
  if (source.eventName === 'workflow_dispatch') {
    return { inputs: source.dispatchInputs ?? null, ref: source.ref, repository, sender, workflow: source.workflowPath };
  }
  if (source.eventName !== 'push') return { repository, sender };
  const before = commit?.parent ?? ZERO_SHA;
  const head = commit === null ? null : commitObject(bases, source.fullName, commit);
  const compare = before === ZERO_SHA
    ? `${bases.html}/${source.fullName}/commit/${source.sha.slice(0, 12)}`
    : `${bases.html}/${source.fullName}/compare/${before.slice(0, 12)}...${source.sha.slice(0, 12)}`;
  return {
    ref: source.ref, before, after: source.sha, repository, pusher: { name: owner, email: null }, sender,
    created: before === ZERO_SHA, deleted: false, forced: false, base_ref: null, compare,
    commits: head === null ? [] : [head], head_commit: head,
  };
}

/** Writes the payload where GitHub's runner does (`<temp>/_github_workflow/event.json`); returns the path. */
export function writeEventFile(tempDir: string, payload: EventPayload): string {
  const path = eventFilePath(tempDir);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(payload, null, 2));
  return path;
}

/** The path {@link writeEventFile} writes to (GITHUB_EVENT_PATH). */
export function eventFilePath(tempDir: string): string {
  return join(tempDir, '_github_workflow', 'event.json');
}
