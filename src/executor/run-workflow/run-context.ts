import type { ContainerRunPlan } from '../container/index.js';
import type { CiEvent } from '../../domain/ci-events.js';
import type { EventPayload } from '../event-payload/index.js';
import type { ContextValue } from '../expressions.js';
import type { SandboxRunPlan } from '../sandbox/index.js';
import type { ArtifactResult, RunWorkflowOptions } from '../types.js';
import type { WorkflowDef } from '../workflow-model.js';

export type KeyOutcome = {
  result: 'success' | 'failure' | 'cancelled' | 'skipped';
  outputs: Record<string, string>;
};

export function runUrl(options: RunWorkflowOptions, jobId?: string): string | null {
  if (options.htmlBaseUrl === undefined) return null;
  const run = `${options.htmlBaseUrl.replace(/\/+$/, '')}/${options.repo.fullName}/actions/runs/${options.runId}`;
  return jobId === undefined ? run : `${run}/job/${jobId}`;
}

/** A counting semaphore for the job concurrency limit. */
export function semaphore(limit: number): { acquire: () => Promise<void>; release: () => void } {
  let active = 0;
  const waiting: Array<() => void> = [];
  return {
    acquire: () =>
      new Promise<void>((resolve) => {
        if (active < limit) {
          active += 1;
          resolve();
        } else waiting.push(resolve);
      }),
    release: () => {
      const next = waiting.shift();
      if (next === undefined) active -= 1;
      else next();
    },
  };
}

export type RunContext = {
  options: RunWorkflowOptions;
  /**
   * What steps reach as `origin`: the run's source view (only the run's commit, its history and the tags into it;
   * see source-view.ts), or the source URL as given.
   */
  source: string;
  workflow: WorkflowDef;
  runDir: string;
  artifacts: Map<string, ArtifactResult>;
  baseEnv: Record<string, string>;
  runnerName: string;
  now: () => Date;
  signal: AbortSignal;
  pool: ReturnType<typeof semaphore>;
  emit: (event: CiEvent) => Promise<void>;
  pythonVersionsDirs: string[];
  sandbox: SandboxRunPlan;
  /** The run's container runtime decision (src/executor/container/). */
  containers: ContainerRunPlan;
  /** Paths hidden from every job's steps (the run's work, log and artifact directories, the configured ones). */
  hiddenPaths: string[];
  secretValues: string[];
  /** `github.event` of every job (the triggering event's webhook payload). */
  event: EventPayload;
  /** The `inputs` context of the workflow's own jobs: typed `workflow_dispatch` inputs, empty for other events. */
  inputs: Record<string, ContextValue>;
};
