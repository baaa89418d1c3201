import { findRepoById, nodeId } from '../state.js';
import type { SimArtifact, SimAttempt, SimJob, SimRun, SimState, SimWorkflow } from '../types.js';
import { appBotUser } from './accounts.js';
import { serializeMinimalRepo } from './repository.js';

export function serializeWorkflow(base: string, fullName: string, workflow: SimWorkflow): Record<string, unknown> {
  return {
    id: workflow.id,
    node_id: nodeId('W_', workflow.id),
    name: workflow.name,
    path: workflow.path,
    state: workflow.state,
    created_at: workflow.createdAt,
    updated_at: workflow.updatedAt,
    url: `${base}/repos/${fullName}/actions/workflows/${workflow.id}`,
    html_url: `${base}/${fullName}/blob/main/${workflow.path}`,
    badge_url: `${base}/${fullName}/workflows/${encodeURIComponent(workflow.name)}/badge.svg`,
  };
}

export function latestAttempt(run: SimRun): SimAttempt {
  const attempt = run.attempts[run.attempts.length - 1];
  if (!attempt) throw new Error('run without attempts');
  return attempt;
}

/** The jobs an attempt lists: its own, plus those carried over from earlier attempts by rerun-failed-jobs. */
export function jobsOfAttempt(state: SimState, run: SimRun, attemptNumber: number): SimJob[] {
  const carried = new Set(run.attempts[attemptNumber - 1]?.carriedJobIds ?? []);
  return [...state.jobs.values()].filter((j) => j.runId === run.id && (j.runAttempt === attemptNumber || carried.has(j.id))).sort((a, b) => a.id - b.id);
}

export function serializeRun(base: string, state: SimState, run: SimRun, attemptNumber?: number): Record<string, unknown> {
  const repo = findRepoById(state, run.repoId);
  if (!repo) throw new Error(`run ${run.id} has no repository`);
  const attempt = attemptNumber === undefined ? latestAttempt(run) : run.attempts[attemptNumber - 1] ?? latestAttempt(run);
  const api = `${base}/repos/${repo.fullName}`;
  const actor = appBotUser(base, state);
  const repository = serializeMinimalRepo(base, state, repo);
  return {
    id: run.id,
    name: run.name,
    node_id: nodeId('WFR_', run.id),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.path,
    display_title: run.displayTitle,
    run_number: run.runNumber,
    event: run.event,
    status: attempt.status,
    conclusion: attempt.conclusion,
    workflow_id: run.workflowId,
    check_suite_id: run.checkSuiteId,
    check_suite_node_id: nodeId('CS_', run.checkSuiteId),
    url: `${api}/actions/runs/${run.id}`,
    html_url: `${base}/${repo.fullName}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: attempt.createdAt,
    updated_at: attempt.updatedAt,
    actor,
    run_attempt: attempt.attempt,
    referenced_workflows: [],
    run_started_at: attempt.runStartedAt,
    triggering_actor: actor,
    jobs_url: `${api}/actions/runs/${run.id}/jobs`,
    logs_url: `${api}/actions/runs/${run.id}/logs`,
    check_suite_url: `${api}/check-suites/${run.checkSuiteId}`,
    artifacts_url: `${api}/actions/runs/${run.id}/artifacts`,
    cancel_url: `${api}/actions/runs/${run.id}/cancel`,
    rerun_url: `${api}/actions/runs/${run.id}/rerun`,
    previous_attempt_url: attempt.attempt > 1 ? `${api}/actions/runs/${run.id}/attempts/${attempt.attempt - 1}` : null,
    workflow_url: `${api}/actions/workflows/${run.workflowId}`,
    head_commit: {
      id: run.headCommit.id,
      tree_id: run.headCommit.treeId,
      message: run.headCommit.message,
      timestamp: run.headCommit.timestamp,
      author: run.headCommit.author,
      committer: run.headCommit.committer,
    },
    repository,
    head_repository: repository,
  };
}

export function serializeJob(base: string, state: SimState, job: SimJob): Record<string, unknown> {
  const run = state.runs.get(job.runId);
  const repo = run ? findRepoById(state, run.repoId) : undefined;
  if (!run || !repo) throw new Error(`job ${job.id} has no run`);
  const api = `${base}/repos/${repo.fullName}`;
  return {
    id: job.id,
    run_id: job.runId,
    workflow_name: run.name,
    head_branch: run.headBranch,
    run_url: `${api}/actions/runs/${run.id}`,
    run_attempt: job.runAttempt,
    node_id: nodeId('CR_', job.id),
    head_sha: run.headSha,
    url: `${api}/actions/jobs/${job.id}`,
    html_url: `${base}/${repo.fullName}/actions/runs/${run.id}/job/${job.id}`,
    status: job.status,
    conclusion: job.conclusion,
    created_at: job.createdAt,
    started_at: job.startedAt,
    completed_at: job.completedAt,
    name: job.name,
    steps: job.steps.map((step) => ({
      name: step.name,
      status: step.status,
      conclusion: step.conclusion,
      number: step.number,
      started_at: step.startedAt,
      completed_at: step.completedAt,
    })),
    check_run_url: `${api}/check-runs/${job.id}`,
    labels: job.labels,
    runner_id: job.runnerName === null ? null : 1,
    runner_name: job.runnerName,
    runner_group_id: job.runnerName === null ? null : 1,
    runner_group_name: job.runnerName === null ? null : 'GitHub Actions',
  };
}

export function serializeArtifact(base: string, state: SimState, artifact: SimArtifact): Record<string, unknown> {
  const repo = findRepoById(state, artifact.repoId);
  const run = state.runs.get(artifact.runId);
  if (!repo || !run) throw new Error(`artifact ${artifact.id} has no run`);
  const api = `${base}/repos/${repo.fullName}`;
  return {
    id: artifact.id,
    node_id: nodeId('MDg6QXJ0aWZhY3Q', artifact.id),
    name: artifact.name,
    size_in_bytes: artifact.zip.byteLength,
    url: `${api}/actions/artifacts/${artifact.id}`,
    archive_download_url: `${api}/actions/artifacts/${artifact.id}/zip`,
    expired: Date.parse(artifact.expiresAt) <= Date.now(),
    created_at: artifact.createdAt,
    updated_at: artifact.createdAt,
    expires_at: artifact.expiresAt,
    digest: null,
    workflow_run: { id: run.id, repository_id: repo.id, head_repository_id: repo.id, head_branch: run.headBranch, head_sha: run.headSha },
  };
}
