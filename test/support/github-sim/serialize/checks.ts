import { findRepoById, nodeId } from '../state.js';
import type { SimCheckRun, SimCheckSuite, SimState } from '../types.js';
import { serializeApp } from './accounts.js';
import { serializeMinimalRepo } from './repository.js';

function checkApp(base: string, state: SimState, owner: 'app' | 'actions'): Record<string, unknown> {
  const app = serializeApp(base, state);
  if (owner === 'app') return app;
  return { ...app, id: 15368, slug: 'github-actions', node_id: 'MDM6QXBwMTUzNjg=', name: 'GitHub Actions', client_id: 'Iv1.05c79e9ad1f6bdfa' };
}

export function serializeCheckSuite(base: string, state: SimState, suite: SimCheckSuite): Record<string, unknown> {
  const repo = findRepoById(state, suite.repoId);
  if (!repo) throw new Error(`check suite ${suite.id} has no repository`);
  const runs = [...state.checkRuns.values()].filter((r) => r.checkSuiteId === suite.id);
  const completed = runs.length > 0 && runs.every((r) => r.status === 'completed');
  const conclusion = completed ? (runs.some((r) => r.conclusion === 'failure') ? 'failure' : runs.every((r) => r.conclusion === 'skipped') ? 'skipped' : 'success') : null;
  return {
    id: suite.id,
    node_id: nodeId('CS_', suite.id),
    head_branch: suite.headBranch,
    head_sha: suite.headSha,
    status: completed ? 'completed' : runs.length === 0 ? 'queued' : 'in_progress',
    conclusion,
    url: `${base}/repos/${repo.fullName}/check-suites/${suite.id}`,
    before: '0000000000000000000000000000000000000000',
    after: suite.headSha,
    pull_requests: [],
    app: checkApp(base, state, suite.owner),
    repository: serializeMinimalRepo(base, state, repo),
    created_at: suite.createdAt,
    updated_at: suite.updatedAt,
    rerequestable: true,
    runs_rerequestable: false,
    latest_check_runs_count: runs.length,
    check_runs_url: `${base}/repos/${repo.fullName}/check-suites/${suite.id}/check-runs`,
    head_commit: {
      id: suite.headCommit.id, tree_id: suite.headCommit.treeId, message: suite.headCommit.message, timestamp: suite.headCommit.timestamp,
      author: suite.headCommit.author, committer: suite.headCommit.committer,
    },
  };
}

export function serializeCheckRun(base: string, state: SimState, run: SimCheckRun): Record<string, unknown> {
  const repo = findRepoById(state, run.repoId);
  if (!repo) throw new Error(`check run ${run.id} has no repository`);
  return {
    id: run.id,
    head_sha: run.headSha,
    node_id: nodeId('CR_', run.id),
    external_id: run.externalId ?? '',
    url: `${base}/repos/${repo.fullName}/check-runs/${run.id}`,
    html_url: `${base}/${repo.fullName}/runs/${run.id}`,
    details_url: run.detailsUrl ?? `${base}/${repo.fullName}/runs/${run.id}`,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.startedAt,
    completed_at: run.completedAt,
    output: {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.output.annotations.length,
      annotations_url: `${base}/repos/${repo.fullName}/check-runs/${run.id}/annotations`,
    },
    name: run.name,
    check_suite: { id: run.checkSuiteId },
    app: checkApp(base, state, run.owner),
    pull_requests: [],
  };
}
