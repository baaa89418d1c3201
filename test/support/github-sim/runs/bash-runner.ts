import { spawn } from 'node:child_process';
import { appendFile, cp, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CiConclusion, StepOutcome, WorkflowJobEvent } from '../../../../src/domain/ci-events.js';
import { gitOk } from '../git/git-cli.js';
import type { WorkflowRunContext, WorkflowRunOutcome, WorkflowRunner } from './runner.js';
import { parseWorkflow } from './triggers.js';

/** GitHub's raw log timestamp: ISO-8601 UTC with 7 fractional digits. */
export function logTimestamp(date = new Date()): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$10000Z');
}

interface StepDef {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  'continue-on-error'?: boolean;
}

function orderJobs(jobs: Record<string, Record<string, unknown>>): string[] {
  const done: string[] = [];
  const pending = new Set(Object.keys(jobs));
  while (pending.size > 0) {
    const ready = [...pending].find((key) => needsOf(jobs[key]).every((need) => done.includes(need) || !(need in jobs)));
    const next = ready ?? [...pending][0] ?? '';
    done.push(next);
    pending.delete(next);
  }
  return done;
}

function needsOf(job: Record<string, unknown> | undefined): string[] {
  const needs = job?.needs;
  if (needs === undefined) return [];
  return Array.isArray(needs) ? needs.map(String) : [String(needs)];
}

/**
 * A small built-in runner for the simulator's own tests: runs `run:` steps with bash, supports
 * `actions/checkout` and `actions/upload-artifact`, `needs`, `if: always()/failure()/success()`.
 */
export function createBashRunner(): WorkflowRunner {
  return { run: runWorkflow };
}

async function runWorkflow(ctx: WorkflowRunContext): Promise<WorkflowRunOutcome> {
  const parsed = parseWorkflow(ctx.workflow.text);
  if (!parsed || Object.keys(parsed.jobs).length === 0) return { conclusion: 'startup_failure' };
  const results = new Map<string, CiConclusion>();
  const jobKeys: Record<string, string> = {};
  const withKey = (key: string): WorkflowRunContext => ({ ...ctx, nextJobId: () => {
    const id = ctx.nextJobId();
    jobKeys[id] = key;
    return id;
  } });
  for (const key of orderJobs(parsed.jobs)) {
    const job = parsed.jobs[key] ?? {};
    const needs = needsOf(job);
    if (needs.some((need) => results.get(need) !== 'success') || ctx.signal.aborted) {
      results.set(key, 'skipped');
      emitSkipped(withKey(key), key, job);
      continue;
    }
    results.set(key, await runJob(withKey(key), key, job));
  }
  const all = [...results.values()];
  if (ctx.signal.aborted) return { conclusion: 'cancelled', jobKeys };
  return { jobKeys, conclusion: all.some((c) => c === 'failure') ? 'failure' : all.some((c) => c === 'cancelled') ? 'cancelled' : 'success' };
}

/** A job whose needs failed: GitHub lists it (conclusion skipped) but sends no workflow_job event. */
function emitSkipped(ctx: WorkflowRunContext, key: string, job: Record<string, unknown>): void {
  const now = new Date().toISOString();
  ctx.onEvent({
    kind: 'workflow_job', repoFullName: ctx.repo.fullName, runId: ctx.runId, runAttempt: ctx.runAttempt, jobId: ctx.nextJobId(), headSha: ctx.sha,
    headBranch: ctx.ref.replace(/^refs\/heads\//, ''), name: typeof job.name === 'string' ? job.name : key, status: 'completed', conclusion: 'skipped',
    startedAt: now, completedAt: now, runnerName: null, labels: [], steps: [], htmlUrl: null,
  });
}

async function runJob(ctx: WorkflowRunContext, key: string, job: Record<string, unknown>): Promise<CiConclusion> {
  const jobId = ctx.nextJobId();
  const name = typeof job.name === 'string' ? job.name : key;
  const labels = Array.isArray(job['runs-on']) ? job['runs-on'].map(String) : [String(job['runs-on'] ?? 'ubuntu-latest')];
  const defs = (Array.isArray(job.steps) ? job.steps : []) as StepDef[];
  const stepNames = ['Set up job', ...defs.map((step) => step.name ?? (step.run ? `Run ${step.run.trim().split('\n')[0] ?? ''}` : `Run ${step.uses ?? ''}`)), 'Complete job'];
  const steps: StepOutcome[] = stepNames.map((stepName, i) => ({ number: i + 1, name: stepName, status: 'queued', conclusion: null, startedAt: null, completedAt: null }));
  const created = new Date().toISOString();
  const event = (status: WorkflowJobEvent['status'], conclusion: CiConclusion | null, completedAt: string | null): WorkflowJobEvent => ({
    kind: 'workflow_job', repoFullName: ctx.repo.fullName, runId: ctx.runId, runAttempt: ctx.runAttempt, jobId, headSha: ctx.sha,
    headBranch: ctx.ref.replace(/^refs\/heads\//, ''), name, status, conclusion, startedAt: created, completedAt,
    runnerName: status === 'queued' ? null : 'GitHub Actions 1', labels, steps: steps.map((s) => ({ ...s })), htmlUrl: null,
  });
  ctx.onEvent(event('queued', null, null));
  const logFile = join(ctx.logsDir, `${jobId}.log`);
  await mkdir(ctx.logsDir, { recursive: true });
  await writeFile(logFile, '\uFEFF');
  let tail: Promise<void> = Promise.resolve();
  const log = (text: string): Promise<void> => {
    tail = tail.then(() => appendFile(logFile, text.split('\n').map((line) => `${logTimestamp()} ${line}\n`).join('')));
    return tail;
  };
  const workspace = join(ctx.workRoot, `job-${jobId}`);
  await mkdir(workspace, { recursive: true });
  const mark = (index: number, status: StepOutcome['status'], conclusion: CiConclusion | null): void => {
    const step = steps[index];
    if (!step) return;
    step.status = status;
    step.conclusion = conclusion;
    if (status === 'in_progress') step.startedAt = new Date().toISOString();
    if (status === 'completed') {
      step.startedAt ??= new Date().toISOString();
      step.completedAt = new Date().toISOString();
    }
  };
  mark(0, 'in_progress', null);
  ctx.onEvent(event('in_progress', null, null));
  await log(`Current runner version: '2.321.0'\nRunner name: 'GitHub Actions 1'\n##[group]Operating System\nUbuntu\n##[endgroup]`);
  mark(0, 'completed', 'success');
  let failed = false;
  for (const [i, def] of defs.entries()) {
    const index = i + 1;
    const condition = (def.if ?? 'success()').replace(/^\$\{\{\s*|\s*\}\}$/g, '').trim();
    const run = condition === 'always()' || (condition === 'failure()' ? failed : condition === 'cancelled()' ? ctx.signal.aborted : !failed);
    if (!run || ctx.signal.aborted) {
      mark(index, 'completed', 'skipped');
      continue;
    }
    mark(index, 'in_progress', null);
    const ok = await runStep(ctx, def, workspace, job, log);
    if (!ok && def['continue-on-error'] !== true) failed = true;
    mark(index, 'completed', ctx.signal.aborted ? 'cancelled' : ok || def['continue-on-error'] === true ? 'success' : 'failure');
  }
  mark(steps.length - 1, 'in_progress', null);
  await log('Cleaning up orphan processes');
  mark(steps.length - 1, 'completed', 'success');
  const conclusion: CiConclusion = ctx.signal.aborted ? 'cancelled' : failed ? 'failure' : 'success';
  ctx.onEvent(event('completed', conclusion, new Date().toISOString()));
  return conclusion;
}

async function runStep(ctx: WorkflowRunContext, def: StepDef, workspace: string, job: Record<string, unknown>, log: (text: string) => Promise<void>): Promise<boolean> {
  if (def.uses?.startsWith('actions/checkout')) {
    await log(`##[group]Run ${def.uses}\n##[endgroup]`);
    await gitOk(['init', '-q', workspace]);
    await gitOk(['fetch', '-q', ctx.repo.gitDir, ctx.sha], { cwd: workspace });
    await gitOk(['checkout', '-q', '--detach', ctx.sha], { cwd: workspace });
    return true;
  }
  if (def.uses?.startsWith('actions/upload-artifact')) {
    const name = String(def.with?.name ?? 'artifact');
    const path = String(def.with?.path ?? '.');
    await log(`##[group]Run ${def.uses}\nwith:\n  name: ${name}\n  path: ${path}\n##[endgroup]`);
    const source = join(workspace, path);
    const exists = await stat(source).then(() => true, () => false);
    if (!exists) {
      await log(`##[warning]No files were found with the provided path: ${path}. No artifacts will be uploaded.`);
      return true;
    }
    const target = join(ctx.artifactsDir, name);
    await mkdir(target, { recursive: true });
    await cp(source, (await stat(source)).isDirectory() ? target : join(target, path.split('/').pop() ?? 'file'), { recursive: true });
    return true;
  }
  if (def.uses) {
    await log(`##[group]Run ${def.uses}\n##[endgroup]\n##[warning]${def.uses} is not simulated; skipped.`);
    return true;
  }
  const script = def.run ?? '';
  await log(`##[group]Run ${script.trim().split('\n')[0] ?? ''}\n${script.trimEnd()}\nshell: /usr/bin/bash -e {0}\n##[endgroup]`);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', CI: 'true', GITHUB_ACTIONS: 'true',
    GITHUB_SHA: ctx.sha, GITHUB_REF: ctx.ref, GITHUB_REPOSITORY: ctx.repo.fullName, GITHUB_RUN_ID: ctx.runId,
    GITHUB_RUN_ATTEMPT: String(ctx.runAttempt), GITHUB_EVENT_NAME: ctx.event, GITHUB_WORKSPACE: workspace,
    ...stringify(job.env), ...stringify(def.env),
  };
  const code = await new Promise<number>((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], { cwd: workspace, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Promise<void>[] = [];
    const onData = (chunk: Buffer): void => {
      chunks.push(log(chunk.toString('utf8').replace(/\n$/, '')));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const abort = (): void => {
      if (child.pid) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    };
    ctx.signal.addEventListener('abort', abort, { once: true });
    if (ctx.signal.aborted) abort();
    child.on('close', (exit) => {
      ctx.signal.removeEventListener('abort', abort);
      void Promise.all(chunks).then(() => resolve(exit ?? 1));
    });
  });
  if (ctx.signal.aborted) {
    await log('##[error]The operation was canceled.');
    return false;
  }
  if (code !== 0) await log(`##[error]Process completed with exit code ${code}.`);
  return code === 0;
}

function stringify(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}
