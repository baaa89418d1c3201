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
  | 'lint-finding';

export interface ReportEntry {
  action: ReportAction;
  /** Dotted path into the workflow (`jobs.test.steps[3]`, `on`, `permissions`) or a file path. */
  target: string;
  reason: string;
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
}

export interface StandardizeInput {
  text: string;
  path: string;
  options: StandardizeOptions;
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
}

export interface StandardizeLintedResult extends StandardizeResult {
  lint: LintFinding[];
}
