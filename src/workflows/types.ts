/** Types shared by the workflow standardizer, its report and its linter. */

export type ReportAction =
  | 'rewrote-trigger'
  | 'defaulted-input'
  | 'removed-job'
  | 'removed-step'
  | 'kept-job'
  | 'trimmed-needs'
  | 'reduced-matrix'
  | 'kept-matrix'
  | 'rewrote-runner'
  | 'replaced-secret'
  | 'removed-setting'
  | 'rewrote-guard'
  | 'rewrote-step'
  | 'added-setting'
  | 'pinned-dependencies'
  | 'deleted-workflow'
  | 'package-index'
  | 'lint-finding';

/** Why a job or step was removed (what it does that a replay in a copy of the repository cannot or must not do). */
export type RemovalRule =
  | 'publishing'
  | 'deployment'
  | 'release'
  | 'notification'
  | 'repo-write'
  | 'coverage-upload'
  | 'artifact-upload'
  | 'security-upload'
  | 'benchmark-service'
  | 'debug-session'
  | 'secret-bound'
  | 'upstream-only'
  | 'release-only'
  | 'schedule-only'
  | 'event-only'
  | 'pull-request-only'
  | 'special-hardware'
  | 'other-revision'
  | 'no-validation-left'
  | 'needs-removed-job'
  | 'orphaned'
  | 'callee-nothing-to-validate'
  | 'aggregates-nothing';

export interface ReportEntry {
  action: ReportAction;
  /** Dotted path into the workflow (`jobs.test.steps[3]`, `on`, `permissions`) or a file path. */
  target: string;
  reason: string;
  /** For removed jobs and steps: the rule that removed them. */
  rule?: RemovalRule;
  /** For removed jobs and steps: what showed it (the command, the action, the secret, the guard, the runner). */
  evidence?: string;
}

export type MatrixStrategy = 'first' | 'newest-python' | 'from-logs';

export interface StandardizeOptions {
  matrixStrategy: MatrixStrategy;
  /** Failed job names from the instance logs (`test (3.9, ubuntu-latest)`), used by `from-logs`. */
  failedJobNames?: readonly string[];
  /** Default `timeout-minutes` for jobs that set none (default 60). */
  timeoutMinutes?: number;
  /** Pin dependency resolution to packages uploaded before this date (the instance's commit date). */
  pinDate?: Date;
  /** A time-machine package index URL, exported as PIP_INDEX_URL and UV_INDEX_URL. */
  indexUrl?: string;
  /**
   * `entry` (default): the workflow the replay runs. `callee`: a reusable workflow the entry calls
   * (`selectWorkflowFilesToDelete` keeps those): its trigger stays `workflow_call` only, its inputs keep
   * their values, and no concurrency group is set (it would share the caller's group and deadlock).
   */
  role?: 'entry' | 'callee';
  /** Branch glob the replayed workflow triggers on (default `ci-replay/**`). */
  branchPattern?: string;
  /**
   * The upstream repository (`owner/name`) the workflow comes from. A checkout of it by name is a checkout of the
   * commit under test: it is pointed at the copy (`${{ github.repository }}`).
   */
  upstreamRepository?: string;
}

/** Another workflow file of the same commit (the reusable workflows a job calls, the callers of a reusable workflow). */
export interface SiblingWorkflow {
  path: string;
  text: string;
}

export interface StandardizeInput {
  text: string;
  path: string;
  options: StandardizeOptions;
  /**
   * The other workflow files of the commit. With them, a job calling a local reusable workflow is judged by what the
   * callee does once standardized, and a reusable workflow run as the entry takes the inputs its callers pass.
   */
  workflows?: readonly SiblingWorkflow[];
}

/**
 * A package index service a job runs (a time machine serving the index as of a date on localhost), what the
 * standardizer did with it, and what a backend that cannot run services substitutes: `indexUrl`, else `pinDate`.
 */
export interface PackageIndexService {
  job: string;
  service: string;
  image: string | undefined;
  /** The URL the job's steps use (`http://localhost:<port>/...`). */
  url: string;
  /** The environment variables that point at it (PIP_INDEX_URL, UV_INDEX_URL...). */
  variables: string[];
  /** The cutoff the service was configured with, when the workflow shows it. */
  cutoff: string | undefined;
  /** `replaced`: the service was removed and the variables point at `indexUrl`; `kept`: the service stays. */
  handling: 'replaced' | 'kept';
  /** What to substitute when the service cannot run: the configured index URL, else a pin date. */
  substitute: { indexUrl: string } | { pinDate: string } | undefined;
}

export interface LintFinding {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
}

export type WorkflowLinter = (text: string, path: string) => LintFinding[];

export interface StandardizeResult {
  text: string;
  report: ReportEntry[];
  /** Package index services (time machines) found in the kept jobs. */
  packageIndexes?: PackageIndexService[];
}

export interface StandardizeLintedResult extends StandardizeResult {
  lint: LintFinding[];
}
