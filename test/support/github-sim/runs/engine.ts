import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { CiConclusion, CiEvent } from '../../../../src/domain/ci-events.js';
import type { SimContext } from '../context.js';
import { readCommit, readWorkflowFiles, ZERO_SHA } from '../git/bare-repo.js';
import { GhError } from '../http/gh-error.js';
import { jobsOfAttempt, latestAttempt, serializeJob, serializeRun, serializeWorkflow } from '../serialize/actions.js';
import { findRepoById, nextId } from '../state.js';
import type { SimJob, SimRepo, SimRun, SimWorkflow } from '../types.js';
import { emitRepoEvent } from '../webhooks/payloads.js';
import { collectOutputs } from './collect-outputs.js';
import { planFailedJobsRerun } from './rerun-plan.js';
import { parseWorkflow } from './triggers.js';

export type StopReason = 'cancelled' | 'timed_out';

export interface Engine {
  registerWorkflows(repo: SimRepo, sha: string, state?: SimWorkflow['state']): Promise<{ workflow: SimWorkflow; text: string }[]>;
  createRun(repo: SimRepo, workflow: SimWorkflow, text: string, sha: string, branch: string, event: string): Promise<SimRun>;
  /** A new attempt; `failedOnly` (rerun-failed-jobs) carries over the jobs that succeeded (see rerun-plan.ts). */
  rerun(run: SimRun, options?: { failedOnly?: boolean }): void;
  stop(run: SimRun, reason: StopReason): void;
  /** Starts a run that a fault kept queued. */
  start(run: SimRun): void;
}

export function createEngine(ctx: SimContext): Engine {
  const texts = new Map<number, string>();
  /** Workflow text of one attempt (`<run id>:<attempt>`) when it differs from the run's (rerun-failed-jobs). */
  const attemptTexts = new Map<string, string>();
  const controllers = new Map<number, { controller: AbortController; reason: StopReason | null }>();

  const emitRun = (run: SimRun, action: string): void => {
    const repo = findRepoById(ctx.state, run.repoId);
    const workflow = repo?.workflows.find((w) => w.id === run.workflowId);
    if (!repo || !workflow) return;
    const base = ctx.base();
    emitRepoEvent(ctx, 'workflow_run', repo, { action, workflow_run: serializeRun(base, ctx.state, run), workflow: serializeWorkflow(base, repo.fullName, workflow) });
  };

  const emitJob = (run: SimRun, job: SimJob, action: string): void => {
    const repo = findRepoById(ctx.state, run.repoId);
    if (!repo) return;
    emitRepoEvent(ctx, 'workflow_job', repo, { action, workflow_job: serializeJob(ctx.base(), ctx.state, job) });
  };

  const onJobEvent = (run: SimRun, attempt: number, event: CiEvent): void => {
    if (event.kind !== 'workflow_job') return;
    const id = Number(event.jobId);
    const now = new Date().toISOString();
    const existing = ctx.state.jobs.get(id);
    const job: SimJob = existing ?? {
      id, runId: run.id, runAttempt: attempt, key: null, name: event.name, status: 'queued', conclusion: null, createdAt: now,
      startedAt: event.startedAt ?? now, completedAt: null, runnerName: null, labels: event.labels, steps: [], log: '',
    };
    const previous = existing?.status ?? null;
    const status = event.status === 'requested' || event.status === 'pending' ? 'queued' : event.status;
    job.status = status;
    job.conclusion = event.conclusion;
    job.name = event.name;
    job.labels = event.labels;
    job.runnerName = event.runnerName;
    job.steps = event.steps.map((s) => ({ ...s }));
    if (status === 'in_progress' && previous !== 'in_progress') job.startedAt = event.startedAt ?? now;
    if (status === 'completed') job.completedAt = event.completedAt ?? now;
    ctx.state.jobs.set(id, job);
    upsertJobCheckRun(run, job);
    // A job that never got queued (its needs failed) produces no workflow_job event on GitHub.
    if (previous === null && status === 'completed' && event.conclusion === 'skipped') return;
    if (previous === null && status !== 'queued') emitJob(run, { ...job, status: 'queued', conclusion: null, steps: [], runnerName: null }, 'queued');
    if (previous !== status && (status === 'queued' || status === 'in_progress' || status === 'completed' || status === 'waiting')) {
      emitJob(run, job, status);
    }
  };

  const upsertJobCheckRun = (run: SimRun, job: SimJob): void => {
    ctx.state.checkRuns.set(job.id, {
      id: job.id, repoId: run.repoId, name: job.name, headSha: run.headSha,
      status: job.status === 'requested' || job.status === 'pending' ? 'queued' : job.status,
      conclusion: job.conclusion, startedAt: job.startedAt, completedAt: job.completedAt, detailsUrl: null, externalId: null,
      output: { title: null, summary: null, text: null, annotations: [] }, actions: [], checkSuiteId: run.checkSuiteId, owner: 'actions',
    });
  };

  const finishJobs = (run: SimRun, attempt: number, conclusion: CiConclusion): void => {
    for (const job of ctx.state.jobs.values()) {
      if (job.runId !== run.id || job.runAttempt !== attempt || job.status === 'completed') continue;
      job.status = 'completed';
      job.conclusion = conclusion;
      job.completedAt = new Date().toISOString();
      job.steps = job.steps.map((s) => (s.status === 'completed' ? s : { ...s, status: 'completed', conclusion: conclusion === 'timed_out' ? 'cancelled' : conclusion, completedAt: job.completedAt }));
      upsertJobCheckRun(run, job);
      emitJob(run, job, 'completed');
    }
  };

  const complete = (run: SimRun, conclusion: CiConclusion): void => {
    const attempt = latestAttempt(run);
    finishJobs(run, attempt.attempt, conclusion);
    attempt.status = 'completed';
    attempt.conclusion = conclusion;
    attempt.updatedAt = new Date().toISOString();
    emitRun(run, 'completed');
  };

  const execute = async (run: SimRun): Promise<void> => {
    const repo = findRepoById(ctx.state, run.repoId);
    const attempt = latestAttempt(run);
    const text = attemptTexts.get(`${run.id}:${attempt.attempt}`) ?? texts.get(run.id);
    if (!repo || text === undefined) return;
    const control = { controller: new AbortController(), reason: null as StopReason | null };
    controllers.set(run.id, control);
    const dir = join(ctx.dataDir, 'runs', `${run.id}-${attempt.attempt}`);
    const paths = { workRoot: join(dir, 'work'), logsDir: join(dir, 'logs'), artifactsDir: join(dir, 'artifacts') };
    await Promise.all(Object.values(paths).map((p) => mkdir(p, { recursive: true })));
    attempt.status = 'in_progress';
    attempt.runStartedAt = new Date().toISOString();
    attempt.updatedAt = attempt.runStartedAt;
    emitRun(run, 'in_progress');
    let conclusion: CiConclusion;
    try {
      const outcome = await ctx.runner.run({
        workflow: { text, path: run.path, name: run.name },
        repo: { gitDir: repo.gitDir, fullName: repo.fullName, cloneUrl: `${ctx.base()}/${repo.fullName}.git` },
        sha: run.headSha, ref: run.headBranch ? `refs/heads/${run.headBranch}` : run.headSha, event: run.event,
        runId: String(run.id), runAttempt: attempt.attempt, ...paths,
        nextJobId: () => String(nextId(ctx.state, 'job')),
        onEvent: (event) => onJobEvent(run, attempt.attempt, event),
        signal: control.controller.signal,
        acquireJob: (signal) => ctx.limits.acquireJob(repo.owner.login, signal),
      });
      conclusion = outcome.conclusion;
      for (const [id, key] of Object.entries(outcome.jobKeys ?? {})) {
        const job = ctx.state.jobs.get(Number(id));
        if (job) job.key = key;
      }
    } catch {
      conclusion = 'failure';
    }
    if (control.reason) conclusion = control.reason;
    controllers.delete(run.id);
    await collectOutputs(ctx, run, attempt.attempt, repo, paths.logsDir, paths.artifactsDir);
    await rm(paths.workRoot, { recursive: true, force: true });
    complete(run, conclusion);
  };

  const schedule = (run: SimRun): void => {
    if (run.neverStart) return;
    ctx.track(new Promise((resolve) => setTimeout(resolve, ctx.queueDelayMs)).then(() => execute(run)));
  };

  return {
    async registerWorkflows(repo, sha, state = 'active') {
      const files = await readWorkflowFiles(repo.gitDir, sha);
      const found: { workflow: SimWorkflow; text: string }[] = [];
      for (const file of files) {
        const parsed = parseWorkflow(file.text);
        let workflow = repo.workflows.find((w) => w.path === file.path);
        if (!workflow) {
          const now = new Date().toISOString();
          workflow = { id: nextId(ctx.state, 'workflow'), repoId: repo.id, path: file.path, name: parsed?.name ?? file.path, state, createdAt: now, updatedAt: now };
          repo.workflows.push(workflow);
        }
        found.push({ workflow, text: file.text });
      }
      return found;
    },
    async createRun(repo, workflow, text, sha, branch, event) {
      const commit = await readCommit(repo.gitDir, sha);
      const now = new Date().toISOString();
      const runNumber = [...ctx.state.runs.values()].filter((r) => r.workflowId === workflow.id).length + 1;
      const rule = ctx.neverStartRules.find((r) => (r.times ?? 1) > 0 && (!r.repo || r.repo.toLowerCase() === repo.fullName.toLowerCase()) && (!r.workflowPath || r.workflowPath === workflow.path) && (!r.branch || r.branch === branch));
      if (rule) rule.times = (rule.times ?? 1) - 1;
      const checkSuiteId = nextId(ctx.state, 'checkSuite');
      const headCommit = { id: commit.sha, treeId: commit.treeId, message: commit.message, timestamp: commit.timestamp, author: commit.author, committer: commit.committer };
      ctx.state.checkSuites.set(checkSuiteId, { id: checkSuiteId, repoId: repo.id, headSha: sha, headBranch: branch, owner: 'actions', createdAt: now, updatedAt: now, completedSent: false, headCommit });
      const run: SimRun = {
        id: nextId(ctx.state, 'run'), repoId: repo.id, workflowId: workflow.id, name: workflow.name, path: workflow.path, headSha: sha,
        headBranch: branch, event, runNumber, checkSuiteId, displayTitle: commit.message.split('\n')[0] ?? '',
        headCommit,
        attempts: [{ attempt: 1, status: 'queued', conclusion: null, createdAt: now, updatedAt: now, runStartedAt: now }],
        neverStart: rule !== undefined,
      };
      ctx.state.runs.set(run.id, run);
      texts.set(run.id, text);
      emitRun(run, 'requested');
      schedule(run);
      return run;
    },
    rerun(run, options = {}) {
      const last = latestAttempt(run);
      if (last.status !== 'completed') throw new GhError(403, 'This workflow is already running');
      const now = new Date().toISOString();
      const text = texts.get(run.id);
      const previous = jobsOfAttempt(ctx.state, run, last.attempt).map((job) => ({ id: job.id, key: job.key, conclusion: job.conclusion }));
      const plan = options.failedOnly && text !== undefined ? planFailedJobsRerun(text, previous) : null;
      if (plan) attemptTexts.set(`${run.id}:${last.attempt + 1}`, plan.text);
      run.attempts.push({
        attempt: last.attempt + 1, status: 'queued', conclusion: null, createdAt: last.createdAt, updatedAt: now, runStartedAt: now,
        ...(plan ? { carriedJobIds: plan.carriedJobIds } : {}),
      });
      run.neverStart = false;
      schedule(run);
    },
    stop(run, reason) {
      const attempt = latestAttempt(run);
      if (attempt.status === 'completed') throw new GhError(409, 'Cannot cancel a workflow run that is completed.');
      const control = controllers.get(run.id);
      if (control) {
        control.reason = reason;
        control.controller.abort();
        return;
      }
      run.neverStart = true;
      complete(run, reason);
    },
    start(run) {
      run.neverStart = false;
      schedule(run);
    },
  };
}

export function isBranchPush(ref: string, after: string): boolean {
  return ref.startsWith('refs/heads/') && after !== ZERO_SHA;
}
