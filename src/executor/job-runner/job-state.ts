import type { Logger } from 'pino';
import type { StepOutcome } from '../../domain/ci-events.js';
import type { ContainerRunPlan, JobEnvironment } from '../container/index.js';
import type { EventPayload } from '../event-payload/index.js';
import type { ContextValue, StatusState } from '../expressions.js';
import type { JobLog } from '../log-writer.js';
import type { MatrixCombo } from '../matrix.js';
import type { ActionSettings, PreparedAction } from '../actions/index.js';
import type { EvalEnv } from '../expressions.js';
import type { JobSandbox, SandboxRunPlan, StepLauncher } from '../sandbox/index.js';
import type { ArtifactResult, Annotation } from '../types.js';
import type { JobDef, WorkflowDef } from '../workflow-model.js';

export type StepOutcomeValue = 'success' | 'failure' | 'cancelled' | 'skipped';

/** Everything a job needs from the run: fixed before the job starts. */
export interface JobInput {
  workflow: WorkflowDef;
  job: JobDef;
  matrix: MatrixCombo | null;
  /** Position in the matrix and its size (for the `strategy` context). */
  matrixIndex: number;
  matrixTotal: number;
  jobId: string;
  name: string;
  needs: Record<string, { result: string; outputs: Record<string, string> }>;
  needsStatus: StatusState;
  /** The `inputs` context (inputs of a reusable workflow; empty otherwise). */
  inputs: Record<string, ContextValue>;
  repo: { gitDir: string; fullName: string };
  sha: string;
  ref: string;
  runId: string;
  runAttempt: number;
  runNumber: number;
  eventName: string;
  /** `github.event`, also written to GITHUB_EVENT_PATH in the job's temp directory. */
  event: EventPayload;
  jobDir: string;
  logPath: string;
  outputCapBytes: number;
  baseEnv: Record<string, string>;
  extraEnv: Record<string, string>;
  pythonVersionsDirs: string[];
  artifactsDir: string;
  /** Run-wide artifact registry (names are unique within a run). */
  artifacts: Map<string, ArtifactResult>;
  killGraceMs: number;
  cancelGraceMs: number;
  runnerName: string;
  /** Where marketplace actions come from (ACTIONS_BASE_URL, LOCAL_ACTIONS, DATA_DIR/actions); absent: built-in stand-ins only. */
  actions?: ActionSettings;
  /** The run's sandbox decision, and what each job hides from and shows to its steps. */
  sandbox: SandboxRunPlan;
  sandboxPaths: { hide: string[]; readOnly: string[]; gitSafeDirectories: string[] };
  /** The run's container decision (src/executor/container/): absent or without a runtime, jobs run on the host. */
  containers?: ContainerRunPlan;
  /** Masked in the job log from the first line on. */
  secretValues: string[];
  /** Aborted when the run is cancelled or a fail-fast sibling failed. */
  signal: AbortSignal;
  logger: Logger;
  now: () => Date;
  /** Called whenever a step starts or finishes (for in-progress job events). */
  onStepsChanged: (steps: StepOutcome[]) => void | Promise<void>;
  /** Called with the process group id of each step process it starts (RunWorkflowOptions.onProcess). */
  onProcess?: (pgid: number) => void;
}

/** Mutable state while a job runs. */
export interface JobState {
  log: JobLog;
  workspace: string;
  temp: string;
  /** Env from GITHUB_ENV and actions, applied above job env, below step env. */
  addedEnv: Record<string, string>;
  /** Directories from GITHUB_PATH and setup actions, most recent first. */
  addedPath: string[];
  steps: Record<string, { outputs: Record<string, string>; outcome: StepOutcomeValue; conclusion: StepOutcomeValue }>;
  annotations: Annotation[];
  summary: string;
  status: StatusState;
  /**
   * Post-job steps (checkout's "Post" step, JavaScript actions' `post`), in registration order; they run in reverse
   * order at the end of the job: `lines` are logged, then `run` (if any) decides the step's conclusion.
   */
  postSteps: Array<{
    name: string;
    lines: string[];
    run?: (context: { number: number; signal: AbortSignal; ev: EvalEnv }) => Promise<StepOutcomeValue>;
  }>;
  /** The job's marketplace actions, by `uses:` text, resolved and copied into the job at "Set up job". */
  actions: Map<string, PreparedAction>;
  pids: number[];
  jobDir: string;
  /** How step commands are started and watched (namespaces or the host, rlimits). */
  launcher: StepLauncher;
  /** Where steps run (host or container) and how to run processes, images and lookups there (part B: actions). */
  environment: JobEnvironment;
  /** The job's namespaces or container; null when steps run on the host without a sandbox. */
  sandbox: JobSandbox | null;
  /** Variables the sandbox sets for steps (HOME inside the job directory, ~/.local/bin on PATH). */
  sandboxEnv: Record<string, string>;
  /** The first platform failure of the job (setup, sandbox, resource limit, …): reported as JobResult.infraError. */
  infraError: { reason: string; message: string; stepNumber: number } | null;
  /** Steps stopped at their own `timeout-minutes` (JobResult.timedOutSteps). */
  timedOutSteps: number[];
}
