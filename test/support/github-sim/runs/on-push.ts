import { ensureAppSuite } from '../check-suites.js';
import type { SimContext } from '../context.js';
import { serializeCheckSuite } from '../serialize/checks.js';
import { changedFiles, listCommits, readCommit, ZERO_SHA } from '../git/bare-repo.js';
import type { SimRepo } from '../types.js';
import { emitRepoEvent } from '../webhooks/payloads.js';
import type { Engine } from './engine.js';
import { hasPushPathFilters, matchesPushPaths, parseWorkflow, triggersOnPush } from './triggers.js';

export interface RefUpdate {
  ref: string;
  before: string;
  after: string;
}

/** After refs moved (git push, ref API, merge-upstream): `push` webhook, then runs for workflows triggered on push. */
export async function handlePush(ctx: SimContext, engine: Engine, repo: SimRepo, updates: RefUpdate[]): Promise<void> {
  const now = new Date().toISOString();
  repo.pushedAt = now;
  repo.updatedAt = now;
  for (const update of updates) {
    await emitPushEvent(ctx, repo, update);
    if (!update.ref.startsWith('refs/heads/') || update.after === ZERO_SHA) continue;
    const branch = update.ref.slice('refs/heads/'.length);
    const suite = await ensureAppSuite(ctx, repo, update.after, branch);
    const stored = ctx.state.checkSuites.get(suite.id);
    if (suite.created && stored) emitRepoEvent(ctx, 'check_suite', repo, { action: 'requested', check_suite: serializeCheckSuite(ctx.base(), ctx.state, stored) });
    const workflows = await engine.registerWorkflows(repo, update.after);
    if (!repo.actionsEnabled) continue;
    let files: string[] | null = null;
    for (const { workflow, text } of workflows) {
      const parsed = parseWorkflow(text);
      if (!parsed || workflow.state !== 'active' || !triggersOnPush(parsed, update.ref)) continue;
      if (hasPushPathFilters(parsed)) {
        files ??= await changedFiles(repo.gitDir, update.ref, update.before, update.after);
        if (!matchesPushPaths(parsed, files)) continue;
      }
      await engine.createRun(repo, workflow, text, update.after, branch, 'push');
    }
  }
}

async function emitPushEvent(ctx: SimContext, repo: SimRepo, update: RefUpdate): Promise<void> {
  const base = ctx.base();
  const shas = update.after === ZERO_SHA ? [] : await listCommits(repo.gitDir, update.before, update.after);
  const commits = await Promise.all(shas.map(async (sha) => {
    const commit = await readCommit(repo.gitDir, sha);
    return {
      id: commit.sha, tree_id: commit.treeId, distinct: true, message: commit.message, timestamp: commit.timestamp,
      url: `${base}/${repo.fullName}/commit/${commit.sha}`,
      author: { ...commit.author, username: commit.author.name },
      committer: { ...commit.committer, username: commit.committer.name },
      added: [], removed: [], modified: [],
    };
  }));
  const head = commits[commits.length - 1] ?? null;
  emitRepoEvent(ctx, 'push', repo, {
    ref: update.ref,
    before: update.before,
    after: update.after,
    created: update.before === ZERO_SHA,
    deleted: update.after === ZERO_SHA,
    forced: false,
    base_ref: null,
    compare: `${base}/${repo.fullName}/compare/${update.before.slice(0, 12)}...${update.after.slice(0, 12)}`,
    commits,
    head_commit: head,
    pusher: { name: `${ctx.state.app.slug}[bot]`, email: null },
  });
}
