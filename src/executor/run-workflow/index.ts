import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CiEvent } from '../../domain/ci-events.js';
import { resolveDispatchInputs } from '../dispatch-inputs.js';
import type { ResolvedDispatchInputs } from '../dispatch-inputs.js';
import { buildEventPayload } from '../event-payload/index.js';
import { inlineReusableWorkflows } from '../reusable-workflows.js';
import { DEFAULT_CONTAINER_SETTINGS, planContainers } from '../container/index.js';
import { DEFAULT_SANDBOX_SETTINGS, planSandbox } from '../sandbox/index.js';
import { createSourceView } from '../source-view.js';
import type { ArtifactResult, JobResult, RunWorkflowOptions, RunWorkflowResult } from '../types.js';
import type { WorkflowDef } from '../workflow-model.js';
import { parseWorkflow } from '../workflow-model.js';
import { invalidInput, isAppError } from '../../errors.js';
import type { KeyOutcome } from './run-context.js';
import { runUrl, semaphore } from './run-context.js';
import { runKey } from './run-key.js';

const execFileAsync = promisify(execFile);

const isUrl = (gitDir: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(gitDir);

/** A file of the run's commit, or null when absent (or the source is not a local git directory). */
async function readCommitFile(gitDir: string, sha: string, path: string): Promise<string | null> {
  if (isUrl(gitDir)) return null;
  try {
    const { stdout } = await execFileAsync('git', ['show', `${sha}:${path}`], { cwd: gitDir, maxBuffer: 8 * 1024 * 1024 });
    return stdout;
  } catch {
    return null;
  }
}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Runs a workflow for one commit on this host (no Docker), like GitHub Actions would: jobs in `needs`
 * order, matrix legs, `if:` with GitHub's expression engine, logs in GitHub's raw format, progress
 * as normalized CI events. The per-run working directory is removed afterwards.
 */
export async function runWorkflow(options: RunWorkflowOptions): Promise<RunWorkflowResult> {
  let workflow: WorkflowDef;
  try {
    workflow = await inlineReusableWorkflows(parseWorkflow(options.workflow.text, options.workflow.path), (path) =>
      readCommitFile(options.repo.gitDir, options.sha, path),
    );
  } catch (error) {
    if (!isAppError(error) || error.kind !== 'invalid_input') throw error;
    return startupFailure(options, error.message);
  }
  const dispatch = dispatchInputs(options, workflow);
  const now = options.now ?? (() => new Date());
  const iso = (): string => now().toISOString();
  const signal = options.signal ?? new AbortController().signal;
  const runnerName = options.runnerName ?? 'ci-replay-local';
  mkdirSync(options.workRoot, { recursive: true });
  mkdirSync(options.logsDir, { recursive: true });
  mkdirSync(options.artifactsDir, { recursive: true });
  const runDir = mkdtempSync(join(options.workRoot, `run-${options.runId}-${options.runAttempt}-`));
  let source: string;
  try {
    source = isUrl(options.repo.gitDir)
      ? options.repo.gitDir
      : await createSourceView({
        source: options.repo.gitDir, sha: options.sha, ref: options.ref, dir: join(runDir, 'origin.git'),
        ...(options.sourceViewCacheDir !== undefined ? { cacheDir: options.sourceViewCacheDir } : {}),
      });
  } catch (error) {
    rmSync(runDir, { recursive: true, force: true });
    throw error;
  }
  const artifacts = new Map<string, ArtifactResult>();
  const jobs: JobResult[] = [];
  const runStartedAt = iso();
  const emit = async (event: CiEvent): Promise<void> => {
    try {
      await options.onEvent(event);
    } catch (error) {
      options.logger.warn({ err: error, kind: event.kind, status: event.status }, 'executor event callback failed');
    }
  };
  const runEvent = (status: 'requested' | 'in_progress' | 'completed', conclusion: RunWorkflowResult['conclusion'] | null): CiEvent => ({
    kind: 'workflow_run', repoFullName: options.repo.fullName, runId: options.runId, runAttempt: options.runAttempt,
    headSha: options.sha, headBranch: options.ref.startsWith('refs/heads/') ? options.ref.slice(11) : null,
    name: workflow.name, path: options.workflow.path, event: options.eventName ?? 'push', status, conclusion,
    htmlUrl: runUrl(options), runStartedAt, updatedAt: iso(),
  });
  const home = options.hostEnv?.HOME ?? homedir();
  const baseEnv: Record<string, string> = {
    PATH: options.hostEnv?.PATH ?? DEFAULT_PATH,
    HOME: home,
    LANG: options.hostEnv?.LANG ?? 'C.UTF-8',
    USER: 'runner',
    SHELL: '/bin/bash',
    TERM: 'dumb',
  };
  options.logger.info({ runId: options.runId, jobs: workflow.jobs.length }, 'executor run started');
  await emit(runEvent('requested', null));
  await emit(runEvent('in_progress', null));
  const event = await buildEventPayload({
    gitDir: options.repo.gitDir, fullName: options.repo.fullName, sha: options.sha, ref: options.ref, eventName: options.eventName ?? 'push',
    workflowPath: options.workflow.path, htmlBaseUrl: options.htmlBaseUrl, dispatchInputs: dispatch?.event ?? null, now,
  });
  const containers = await planContainers(options.container ?? DEFAULT_CONTAINER_SETTINGS, options.logger);
  // jobs in containers need no host namespaces (nor the host firewall): the sandbox plan only carries the limits
  const sandboxSettings = options.sandbox ?? DEFAULT_SANDBOX_SETTINGS;
  const sandbox = await planSandbox(containers.runtime === null && containers.unavailable === null ? sandboxSettings : { ...sandboxSettings, mode: 'off' }, options.logger);
  const pool = semaphore(Math.max(1, options.maxParallelJobs ?? 4));
  const done = new Map<string, KeyOutcome>();
  const started = new Set<string>();
  const running = new Map<string, Promise<void>>();

  const context = {
    options, source, workflow, runDir, artifacts, baseEnv, runnerName, now, signal, pool, emit, event, inputs: dispatch?.context ?? {},
    pythonVersionsDirs: options.pythonVersionsDirs ?? [join(home, '.pyenv', 'versions')],
    sandbox, containers, secretValues: options.secretValues ?? [],
    hiddenPaths: [options.workRoot, options.logsDir, options.artifactsDir, ...(options.sandbox ?? DEFAULT_SANDBOX_SETTINGS).hiddenPaths],
  };
  try {
    while (done.size < workflow.jobs.length) {
      for (const job of workflow.jobs) {
        if (started.has(job.key) || !job.needs.every((n) => done.has(n))) continue;
        started.add(job.key);
        const promise = runKey(context, job, done).then((outcome) => {
          jobs.push(...outcome.results);
          done.set(job.key, outcome.key);
          running.delete(job.key);
        });
        running.set(job.key, promise);
      }
      await Promise.race(running.values());
    }
  } finally {
    // off the event loop: a run directory holds the jobs' checkouts, and a synchronous removal stalls every other run
    await rm(runDir, { recursive: true, force: true });
  }
  const counted = [...done.values()];
  const conclusion = counted.some((o) => o.result === 'failure')
    ? 'failure'
    : signal.aborted || counted.some((o) => o.result === 'cancelled')
      ? 'cancelled'
      : 'success';
  await emit(runEvent('completed', conclusion));
  options.logger.info({ runId: options.runId, conclusion }, 'executor run completed');
  const order = new Map(workflow.jobs.map((j, i) => [j.key, i]));
  jobs.sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
  return { conclusion, jobs, artifacts: [...artifacts.values()] };
}

/**
 * The `workflow_dispatch` inputs of the run (provided values over declared defaults); null for other events or
 * when the workflow declares none. Throws `invalid_input` for values GitHub's dispatch API would refuse.
 */
function dispatchInputs(options: RunWorkflowOptions, workflow: WorkflowDef): ResolvedDispatchInputs | null {
  const provided = options.inputs ?? {};
  const eventName = options.eventName ?? 'push';
  if (eventName !== 'workflow_dispatch') {
    if (Object.keys(provided).length > 0) {
      throw invalidInput('invalid_dispatch_inputs', `workflow_dispatch inputs were given for a '${eventName}' run: inputs are only for workflow_dispatch runs`);
    }
    return null;
  }
  if (workflow.dispatchInputs === undefined && Object.keys(provided).length === 0) return null;
  return resolveDispatchInputs(workflow.dispatchInputs ?? {}, provided);
}

/** An invalid workflow: GitHub creates the run and concludes it `startup_failure` without any job. */
async function startupFailure(options: RunWorkflowOptions, message: string): Promise<RunWorkflowResult> {
  const at = (options.now ?? (() => new Date()))().toISOString();
  options.logger.warn({ runId: options.runId, path: options.workflow.path, reason: message }, 'executor workflow invalid');
  for (const status of ['requested', 'completed'] as const) {
    try {
      await options.onEvent({
        kind: 'workflow_run', repoFullName: options.repo.fullName, runId: options.runId, runAttempt: options.runAttempt,
        headSha: options.sha, headBranch: options.ref.startsWith('refs/heads/') ? options.ref.slice(11) : null,
        name: options.workflow.path, path: options.workflow.path, event: options.eventName ?? 'push', status,
        conclusion: status === 'completed' ? 'startup_failure' : null, htmlUrl: runUrl(options), runStartedAt: at, updatedAt: at,
      });
    } catch (error) {
      options.logger.warn({ err: error }, 'executor event callback failed');
    }
  }
  return { conclusion: 'startup_failure', jobs: [], artifacts: [], startupError: message };
}
