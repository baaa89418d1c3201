import type { SimContext } from './context.js';
import { readCommit } from './git/bare-repo.js';
import { nextId } from './state.js';
import type { SimRepo } from './types.js';

/** The App's check suite for a commit (GitHub creates one per App with Checks permission on push). */
export async function ensureAppSuite(ctx: SimContext, repo: SimRepo, sha: string, branch: string | null): Promise<{ id: number; created: boolean }> {
  for (const suite of ctx.state.checkSuites.values()) {
    if (suite.repoId === repo.id && suite.headSha === sha && suite.owner === 'app') return { id: suite.id, created: false };
  }
  const id = nextId(ctx.state, 'checkSuite');
  const now = new Date().toISOString();
  const c = await readCommit(repo.gitDir, sha);
  const headCommit = { id: c.sha, treeId: c.treeId, message: c.message, timestamp: c.timestamp, author: c.author, committer: c.committer };
  ctx.state.checkSuites.set(id, { id, repoId: repo.id, headSha: sha, headBranch: branch, owner: 'app', createdAt: now, updatedAt: now, completedSent: false, headCommit });
  return { id, created: true };
}
