import type { Readable } from 'node:stream';
import type { WorkflowJobEvent } from '../domain/ci-events.js';
import type { ExecutorJobReport } from '../domain/executor-report.js';
import type { Blocker, WorkflowText } from '../workflows/index.js';

export type { Blocker, BlockerCode } from '../workflows/index.js';

/**
 * The one seam between the pipeline and where CI runs. `local` pushes to a bare repository on disk and runs
 * the workflow with the project's executor; `github` pushes to a benchmark repository and learns outcomes
 * from webhooks plus the reconciler. Both feed the same normalized events into the same handler.
 */
export interface PublishInput {
  submissionId: string;
  instance: { id: string; repoOwner: string; repoName: string; upstreamUrl: string; shaFail: string };
  /** Mirror git directory holding the commit. */
  gitDir: string;
  commitSha: string;
  branch: string;
  /** The standardized workflow installed in the commit. */
  workflow: { path: string; text: string };
  /** The pool account the scheduler assigned (docs/account-pool.md); absent: the backend's single account (BENCH_OWNER). */
  account?: string;
}

/** What the preflight sees: the standardized workflow and the reusable workflows kept in the commit. */
export interface PreflightInput {
  submissionId: string;
  instance: PublishInput['instance'];
  workflow: WorkflowText;
  /** Reusable workflows of the repository the target calls, as installed in the commit. */
  callees: WorkflowText[];
}

export interface PublishResult {
  benchRepoId: string;
  repoFullName: string;
  headSha: string;
  checkRunId?: bigint;
}

export interface RunAttempt {
  runId: string;
  runAttempt: number;
}

export interface RunRef {
  repoFullName: string;
  runId: string;
  runAttempt: number;
}

export interface JobRef {
  repoFullName: string;
  runId: string;
  jobId: string;
}

export interface Artifact {
  name: string;
  open(): Promise<Readable>;
  /** Files inside the artifact (zip entries for GitHub, files on disk locally). */
  files(): Promise<{ path: string; read(): Promise<Buffer> }[]>;
}

export interface ResultReport {
  submissionId: string;
  repoFullName: string;
  headSha: string;
  checkRunId: bigint | null;
  verdict: 'passed' | 'failed' | 'invalid';
  /** The check run's conclusion when it is not the verdict's (a cancelled submission: `cancelled`). */
  conclusion?: 'cancelled';
  summary: string;
  annotations: { path: string; line: number; level: 'failure' | 'warning' | 'notice'; message: string; title?: string }[];
}

/** What a backend needs to stop a cancelled submission's runs (CiBackend.cancelSubmission). */
export interface CancelRef {
  submissionId: string;
  headSha: string;
  checkRunId: bigint | null;
  /** The instance's upstream repository: the benchmark repository is found from it. */
  upstream: { owner: string; name: string };
}

export interface CiBackend {
  readonly name: 'local' | 'github';
  /**
   * Called by the prepare step after standardization, before anything is pushed or run: what in the workflow
   * this backend cannot execute. Any blocker ends the submission `infra_error` (`not_replayable`).
   */
  preflight(input: PreflightInput): Promise<Blocker[]>;
  publish(input: PublishInput): Promise<PublishResult>;
  /**
   * Called by the prepare step right after publishing. The local backend runs the workflow here and reports
   * every event through `emit`; the GitHub backend returns at once (events arrive by webhook). `attempt`: run this
   * run id again as that attempt (the previous attempt died with its worker); absent, a new run (attempt 1).
   */
  afterPublish(input: PublishInput & PublishResult, context: { emit: EventSink; signal: AbortSignal; attempt?: RunAttempt }): Promise<void>;
  /**
   * A run whose worker died or that was cancelled while nobody ran it: stop what is left of its attempts up to
   * `ref.runAttempt` on this host and remove their work folders (local: recorded step processes, work folders).
   * Absent where nothing is left behind on this host (GitHub).
   */
  abandonRun?(ref: RunRef): Promise<void>;
  /**
   * A submission was cancelled after its commit may have been pushed: stop its runs where the CI platform runs them
   * and close what reports on it (GitHub: cancel every unfinished workflow run of its head commit in the benchmark
   * repository and complete its check run as `cancelled`). Best effort; absent where abandonRun covers it (local).
   */
  cancelSubmission?(ref: CancelRef): Promise<void>;
  /** All jobs of a run attempt, including jobs that never queued; the authoritative final picture. */
  listRunJobs(ref: RunRef): Promise<WorkflowJobEvent[]>;
  openJobLog(ref: JobRef): Promise<Readable | null>;
  /**
   * What the backend's own executor observed about a job (platform failures, time limits), where it runs one (local):
   * the outcome judge then believes the executor's messages in the log only as far as this report confirms them,
   * since a step can print the same lines. Null when nothing is on file. Absent on GitHub, where the log is all there is.
   */
  readExecutorReport?(ref: JobRef): Promise<ExecutorJobReport | null>;
  listArtifacts(ref: RunRef): Promise<Artifact[]>;
  /** Reports the final result (the GitHub check run); the local backend has nothing to report to. */
  reportResult(report: ResultReport): Promise<void>;
}

export type EventSink = (event: import('../domain/ci-events.js').CiEvent) => Promise<void>;
