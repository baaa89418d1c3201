import type { CiConclusion, CiEvent } from '../../../../src/domain/ci-events.js';

/** What the simulator hands a runner for one attempt of one workflow run. */
export interface WorkflowRunContext {
  workflow: { text: string; path: string; name: string };
  repo: { gitDir: string; fullName: string; cloneUrl: string };
  sha: string;
  ref: string;
  event: string;
  runId: string;
  runAttempt: number;
  /** Scratch directory for checkouts. */
  workRoot: string;
  /** The runner writes each job's raw log (GitHub's format) to `<logsDir>/<jobId>.log`. */
  logsDir: string;
  /** The runner writes each artifact's files under `<artifactsDir>/<artifact name>/`. */
  artifactsDir: string;
  /** Job ids come from the simulator so they match GitHub's id space. */
  nextJobId(): string;
  /** workflow_job events (queued, in_progress, completed, with steps); workflow_run events are ignored. */
  onEvent(event: CiEvent): void;
  signal: AbortSignal;
  /**
   * Waits for a job slot of the repository owner's account (its concurrent-job limit, `sim.limits`) and resolves
   * with the slot's release. Runners that honour it (the synthetic runner) queue jobs beyond the limit as GitHub does.
   */
  acquireJob?(signal: AbortSignal): Promise<() => void>;
}

export interface WorkflowRunOutcome {
  conclusion: CiConclusion;
  /** Job id → the workflow's `jobs.<key>` key; without it `rerun-failed-jobs` re-runs every job. */
  jobKeys?: Record<string, string>;
}

export interface WorkflowRunner {
  run(context: WorkflowRunContext): Promise<WorkflowRunOutcome>;
}
