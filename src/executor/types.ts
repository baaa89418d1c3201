import type { Logger } from 'pino';
import type { CiConclusion, CiEvent, StepOutcome } from '../domain/ci-events.js';
import type { DispatchInputValues } from './dispatch-inputs.js';
import type { ActionSettings } from './actions/index.js';
import type { ContainerSettings } from './container/index.js';
import type { SandboxSettings } from './sandbox/index.js';

/** Options of {@link runWorkflow}: one workflow, one commit, one run attempt. */
export interface RunWorkflowOptions {
  workflow: { text: string; path: string };
  /**
   * `gitDir` is a local git directory (bare or not) or a URL `git fetch` understands. Steps never see a local
   * `gitDir` itself: their `origin` is a view of it holding only the run's commit, its history and the tags
   * pointing into it (src/executor/source-view.ts).
   */
  repo: { gitDir: string; fullName: string };
  /**
   * Where base views of a local `gitDir` are cached (one per parent commit, shared by the runs of that parent), so a
   * run's view copies only its own commit. Without it each run's view copies the whole history of its commit.
   */
  sourceViewCacheDir?: string;
  sha: string;
  /** Full ref, e.g. `refs/heads/ci-replay/x/1`. */
  ref: string;
  runId: string;
  runAttempt: number;
  /** `github.run_number` / GITHUB_RUN_NUMBER. Default 1. */
  runNumber?: number;
  /** Base of the html_url fields, e.g. `https://github.com`: runs get `<base>/<repo>/actions/runs/<id>`. Null urls when absent. */
  htmlBaseUrl?: string;
  /** Per-run working directories are created under this directory and removed afterwards. */
  workRoot: string;
  /** One log per job: `<logsDir>/<jobId>.log`. */
  logsDir: string;
  /** Uploaded artifacts: `<artifactsDir>/<name>/...`. */
  artifactsDir: string;
  maxParallelJobs?: number;
  /** Per-job log cap; output beyond it is discarded (the step keeps running). Default 16 MiB. */
  outputCapBytes?: number;
  /** Extra environment variables for every step (after the clean base, before workflow env). */
  env?: Record<string, string>;
  /** The host environment the clean base is built from (PATH, HOME, LANG). Defaults are used when absent. */
  hostEnv?: { PATH?: string; HOME?: string; LANG?: string };
  /** Directories searched for Python installs (pyenv-style `<dir>/<version>/bin/python`). Default `~/.pyenv/versions`. */
  pythonVersionsDirs?: string[];
  eventName?: string;
  /**
   * `workflow_dispatch` input values (only with that `eventName`): the `inputs` context and `github.event.inputs`
   * get them, declared defaults fill the rest. An undeclared input, a non-boolean for a boolean input, a non-number
   * for a number input or a value outside a choice's `options` makes {@link runWorkflow} throw an `invalid_input`
   * error (`invalid_dispatch_inputs`) before the run starts, as GitHub's dispatch API refuses it.
   */
  inputs?: DispatchInputValues;
  /**
   * The step sandbox (README: "Isolation model"): namespaces, step user, network, resource limits, hidden paths.
   * Default: {@link DEFAULT_SANDBOX_SETTINGS} (namespaces where possible, no network, default limits).
   */
  sandbox?: SandboxSettings;
  /**
   * Jobs in containers (docs/local-containers.md): runtime, runner image, network. Default: runtime `host` (the step
   * sandbox above). The step limits and step uid range of `sandbox` apply to containers too.
   */
  container?: ContainerSettings;
  /**
   * Marketplace actions (`owner/repo[/path]@ref`): fetched from `baseUrl`, pinned and cached under `cacheDir`
   * (docs/local-actions.md). Absent: only the built-in stand-ins run, any other `uses:` fails its step.
   */
  actions?: ActionSettings;
  /** Values replaced by `***` in every job log, annotation and summary from the first line on (the service's secrets). */
  secretValues?: string[];
  /** Grace period between SIGTERM and SIGKILL of a step's process group. Default 2000 ms. */
  killGraceMs?: number;
  /** Steps that run after a cancellation (`if: always()`/`cancelled()`) are killed after this long. Default 5 min. */
  cancelGraceMs?: number;
  signal?: AbortSignal;
  /**
   * Called with the process group id of every step process as it starts (the service records them, so a run whose
   * worker died can have what is left of it killed: steps outside a sandbox outlive their worker).
   */
  onProcess?: (pgid: number) => void;
  nextJobId: () => string;
  onEvent: (event: CiEvent) => void | Promise<void>;
  /**
   * Called with each job's result (and what the executor itself observed: `infraError`, `timedOut`,
   * `timedOutSteps`) before the job's `completed` event is emitted, so a backend can keep that report where the
   * outcome judge finds it when it reads the job's log.
   */
  onJobResult?: (job: JobResult) => void | Promise<void>;
  logger: Logger;
  now?: () => Date;
  runnerName?: string;
}

export type JobConclusion = 'success' | 'failure' | 'cancelled' | 'skipped';

export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  message: string;
  title?: string;
  file?: string;
  line?: number;
  endLine?: number;
  col?: number;
  endColumn?: number;
  stepNumber: number;
}

export interface JobResult {
  id: string;
  /** The `jobs.<key>` key of the workflow. */
  key: string;
  name: string;
  matrix: Record<string, unknown> | null;
  conclusion: JobConclusion;
  /** True when the job was stopped by its `timeout-minutes` (GitHub then reports the job as cancelled). */
  timedOut: boolean;
  /** Steps (numbers) the executor stopped at their own `timeout-minutes`. */
  timedOutSteps?: number[];
  steps: StepOutcome[];
  /** Null when the job never ran (skipped): GitHub has no log for it. */
  logPath: string | null;
  annotations: Annotation[];
  outputs: Record<string, string>;
  /** Concatenated `GITHUB_STEP_SUMMARY` content. */
  summary: string;
  startedAt: string | null;
  completedAt: string | null;
  /**
   * Set when the job failed because of the platform rather than the repository's steps, as the executor itself
   * observed it (never read back from the log, which steps can print anything into): the sandbox was unavailable or
   * could not start (`sandbox_unavailable`, `sandbox_failed`), a step hit a resource limit (`out_of_memory`,
   * `process_limit`, `cpu_time_limit`, `file_size_limit`, `output_limit`), "Set up job" failed on a feature the
   * executor does not run or a job setting it could not evaluate (`unsupported_feature`, `job_setup_failed`), or a
   * `uses:` step asked for an action, shell or interpreter this host lacks (`unsupported_feature`,
   * `runner_tooling_missing`). The first one wins; its message is also in the log.
   */
  infraError?: { reason: string; message: string; stepNumber: number };
}

export interface ArtifactResult {
  name: string;
  path: string;
  sizeBytes: number;
}

export interface RunWorkflowResult {
  /** `startup_failure` when the workflow file is invalid (no job ran; see `startupError`). */
  conclusion: Extract<CiConclusion, 'success' | 'failure' | 'cancelled' | 'startup_failure'>;
  startupError?: string;
  jobs: JobResult[];
  artifacts: ArtifactResult[];
}
