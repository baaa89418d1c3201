import type { SimContext } from '../context.js';
import { resolveRef } from '../git/bare-repo.js';
import { GhError, notFoundError, validationError } from '../http/gh-error.js';
import { paginate } from '../http/paginate.js';
import { route, type Route, type SimRequest } from '../http/router.js';
import { signedUrl } from '../http/signed-url.js';
import type { Engine } from '../runs/engine.js';
import { hasTrigger, parseWorkflow } from '../runs/triggers.js';
import { jobsOfAttempt, latestAttempt, serializeArtifact, serializeJob, serializeRun, serializeWorkflow } from '../serialize/actions.js';
import type { SimRepo, SimRun, SimWorkflow } from '../types.js';
import { readyRepoFrom, repoFrom } from './repos.js';

const CONCLUSIONS = new Set(['success', 'failure', 'cancelled', 'skipped', 'neutral', 'timed_out', 'action_required', 'stale', 'startup_failure']);

export function actionsRoutes(ctx: SimContext, engine: Engine): Route[] {
  const { state } = ctx;
  const base = ctx.base;
  const findWorkflow = (repo: SimRepo, id: string): SimWorkflow => {
    const workflow = repo.workflows.find((w) => String(w.id) === id || w.path === `.github/workflows/${id}` || w.path === id);
    if (!workflow) throw notFoundError();
    return workflow;
  };
  const findRun = (repo: SimRepo, id: string | undefined): SimRun => {
    const run = state.runs.get(Number(id));
    if (!run || run.repoId !== repo.id) throw notFoundError();
    return run;
  };
  const listRuns = (req: SimRequest, repo: SimRepo, workflow: SimWorkflow | null) => {
    const q = req.query;
    const status = q.get('status');
    const runs = [...state.runs.values()]
      .filter((r) => r.repoId === repo.id && (!workflow || r.workflowId === workflow.id))
      .filter((r) => !q.get('head_sha') || r.headSha === q.get('head_sha'))
      .filter((r) => !q.get('branch') || r.headBranch === q.get('branch'))
      .filter((r) => !q.get('event') || r.event === q.get('event'))
      .filter((r) => !q.get('check_suite_id') || String(r.checkSuiteId) === q.get('check_suite_id'))
      .filter((r) => !status || (CONCLUSIONS.has(status) ? latestAttempt(r).conclusion === status : latestAttempt(r).status === status))
      .sort((a, b) => b.id - a.id);
    // Like GitHub, filtered searches return at most 1,000 runs.
    const filtered = ['head_sha', 'branch', 'event', 'status', 'actor', 'created'].some((name) => q.has(name));
    if (filtered) runs.splice(1000);
    const { page, headers } = paginate(runs, q, `${base()}${req.path}?${q.toString()}`);
    return { status: 200, body: { total_count: runs.length, workflow_runs: page.map((r) => serializeRun(base(), state, r)) }, headers };
  };
  const listJobs = (req: SimRequest, run: SimRun, attempt: number | null) => {
    const filter = req.query.get('filter') ?? 'latest';
    const latest = latestAttempt(run).attempt;
    const jobs = attempt === null && filter === 'all'
      ? [...state.jobs.values()].filter((j) => j.runId === run.id).sort((a, b) => a.id - b.id)
      : jobsOfAttempt(state, run, attempt ?? latest);
    const { page, headers } = paginate(jobs, req.query, `${base()}${req.path}?${req.query.toString()}`);
    return { status: 200, body: { total_count: jobs.length, jobs: page.map((j) => serializeJob(base(), state, j)) }, headers };
  };
  const artifactsOf = (req: SimRequest, repo: SimRepo, runId: number | null) => {
    const name = req.query.get('name');
    const artifacts = [...state.artifacts.values()].filter((a) => a.repoId === repo.id && (runId === null || a.runId === runId) && (!name || a.name === name)).sort((a, b) => b.id - a.id);
    const { page, headers } = paginate(artifacts, req.query, `${base()}${req.path}?${req.query.toString()}`);
    return { status: 200, body: { total_count: artifacts.length, artifacts: page.map((a) => serializeArtifact(base(), state, a)) }, headers };
  };

  return [
    route('GET', '/repos/{owner}/{repo}/actions/permissions', (req) => {
      const repo = repoFrom(ctx, req, 'administration', 'read');
      return { status: 200, body: { enabled: repo.actionsEnabled, allowed_actions: 'all', selected_actions_url: `${base()}/repos/${repo.fullName}/actions/permissions/selected-actions`, sha_pinning_required: false } };
    }),
    route('PUT', '/repos/{owner}/{repo}/actions/permissions', (req) => {
      const repo = repoFrom(ctx, req, 'administration', 'write');
      if (typeof req.body.enabled !== 'boolean') throw validationError('Invalid request.\n\n"enabled" wasn\'t supplied.');
      repo.actionsEnabled = req.body.enabled;
      return { status: 204 };
    }),
    route('GET', '/repos/{owner}/{repo}/actions/workflows', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      const { page, headers } = paginate(repo.workflows, req.query, `${base()}${req.path}`);
      return { status: 200, body: { total_count: repo.workflows.length, workflows: page.map((w) => serializeWorkflow(base(), repo.fullName, w)) }, headers };
    }),
    route('GET', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      return { status: 200, body: serializeWorkflow(base(), repo.fullName, findWorkflow(repo, req.params.workflow_id ?? '')) };
    }),
    route('PUT', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/enable', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'write');
      const workflow = findWorkflow(repo, req.params.workflow_id ?? '');
      workflow.state = 'active';
      workflow.updatedAt = new Date().toISOString();
      return { status: 204 };
    }),
    route('PUT', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/disable', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'write');
      const workflow = findWorkflow(repo, req.params.workflow_id ?? '');
      workflow.state = 'disabled_manually';
      workflow.updatedAt = new Date().toISOString();
      return { status: 204 };
    }),
    route('GET', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      return listRuns(req, repo, findWorkflow(repo, req.params.workflow_id ?? ''));
    }),
    route('POST', '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches', async (req) => {
      const repo = readyRepoFrom(ctx, req, 'actions', 'write');
      const workflow = findWorkflow(repo, req.params.workflow_id ?? '');
      if (typeof req.body.ref !== 'string') throw validationError('Invalid request.\n\n"ref" wasn\'t supplied.');
      const branch = req.body.ref.replace(/^refs\/heads\//, '');
      const sha = await resolveRef(repo.gitDir, `refs/heads/${branch}`);
      if (!sha) throw validationError(`No ref found for: ${req.body.ref}`);
      const onDefault = await resolveRef(repo.gitDir, `refs/heads/${repo.defaultBranch}`);
      const defaults = onDefault ? await engine.registerWorkflows(repo, onDefault) : [];
      if (!defaults.some((d) => d.workflow.id === workflow.id)) throw notFoundError();
      const atRef = (await engine.registerWorkflows(repo, sha)).find((d) => d.workflow.id === workflow.id);
      const parsed = atRef ? parseWorkflow(atRef.text) : null;
      if (!atRef || !parsed || !hasTrigger(parsed, 'workflow_dispatch')) throw validationError("Workflow does not have 'workflow_dispatch' trigger");
      if (!repo.actionsEnabled || workflow.state !== 'active') throw new GhError(403, 'Actions has been disabled for this workflow.');
      const run = await engine.createRun(repo, workflow, atRef.text, sha, branch, 'workflow_dispatch');
      if (req.body.return_run_details !== true) return { status: 204 };
      return { status: 200, body: { workflow_run_id: run.id, run_url: `${base()}/repos/${repo.fullName}/actions/runs/${run.id}`, html_url: `${base()}/${repo.fullName}/actions/runs/${run.id}` } };
    }),
    route('GET', '/repos/{owner}/{repo}/actions/runs', (req) => listRuns(req, repoFrom(ctx, req, 'actions', 'read'), null)),
    route('GET', '/repos/{owner}/{repo}/actions/runs/{run_id}', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      return { status: 200, body: serializeRun(base(), state, findRun(repo, req.params.run_id)) };
    }),
    route('GET', '/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      const run = findRun(repo, req.params.run_id);
      const n = Number(req.params.attempt_number);
      if (!run.attempts[n - 1]) throw notFoundError();
      return { status: 200, body: serializeRun(base(), state, run, n) };
    }),
    route('GET', '/repos/{owner}/{repo}/actions/runs/{run_id}/jobs', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      return listJobs(req, findRun(repo, req.params.run_id), null);
    }),
    route('GET', '/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      const run = findRun(repo, req.params.run_id);
      const n = Number(req.params.attempt_number);
      if (!run.attempts[n - 1]) throw notFoundError();
      return listJobs(req, run, n);
    }),
    route('GET', '/repos/{owner}/{repo}/actions/jobs/{job_id}', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      const job = state.jobs.get(Number(req.params.job_id));
      if (!job || state.runs.get(job.runId)?.repoId !== repo.id) throw notFoundError();
      return { status: 200, body: serializeJob(base(), state, job) };
    }),
    route('GET', '/repos/{owner}/{repo}/actions/jobs/{job_id}/logs', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      const job = state.jobs.get(Number(req.params.job_id));
      if (!job || state.runs.get(job.runId)?.repoId !== repo.id) throw notFoundError();
      return { status: 302, headers: { location: signedUrl(base(), ctx.signingKey, 'job-logs', job.id, ctx.signedUrlTtlMs) } };
    }),
    route('GET', '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      return artifactsOf(req, repo, findRun(repo, req.params.run_id).id);
    }),
    route('GET', '/repos/{owner}/{repo}/actions/artifacts', (req) => artifactsOf(req, repoFrom(ctx, req, 'actions', 'read'), null)),
    route('GET', '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      const artifact = state.artifacts.get(Number(req.params.artifact_id));
      if (!artifact || artifact.repoId !== repo.id) throw notFoundError();
      return { status: 200, body: serializeArtifact(base(), state, artifact) };
    }),
    route('GET', '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'read');
      const artifact = state.artifacts.get(Number(req.params.artifact_id));
      if (!artifact || artifact.repoId !== repo.id || req.params.archive_format !== 'zip') throw notFoundError();
      return { status: 302, headers: { location: signedUrl(base(), ctx.signingKey, 'artifact', artifact.id, ctx.signedUrlTtlMs) } };
    }),
    route('POST', '/repos/{owner}/{repo}/actions/runs/{run_id}/rerun', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'write');
      engine.rerun(findRun(repo, req.params.run_id));
      return { status: 201, body: {} };
    }),
    route('POST', '/repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'write');
      const run = findRun(repo, req.params.run_id);
      if (latestAttempt(run).conclusion === 'success') throw new GhError(403, 'This workflow run cannot be retried');
      engine.rerun(run, { failedOnly: true });
      return { status: 201, body: {} };
    }),
    route('POST', '/repos/{owner}/{repo}/actions/runs/{run_id}/cancel', (req) => {
      const repo = repoFrom(ctx, req, 'actions', 'write');
      engine.stop(findRun(repo, req.params.run_id), 'cancelled');
      return { status: 202, body: {} };
    }),
  ];
}

