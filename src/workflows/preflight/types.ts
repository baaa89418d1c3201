/** What a CI backend can execute, and what the preflight reports when a workflow asks for more. */

export type BlockerCode =
  | 'service_container'
  | 'job_container'
  | 'unsupported_action'
  | 'unsupported_reusable_workflow'
  | 'self_hosted_runner'
  | 'gpu_runner'
  | 'non_linux_runner'
  | 'unsupported_shell'
  | 'localhost_service_url'
  | 'missing_secret'
  | 'actions_disabled'
  | 'root_required';

/** One reason the standardized workflow cannot be replayed faithfully on a backend. */
export interface Blocker {
  code: BlockerCode;
  /** The job id (`caller/callee` for jobs of a called reusable workflow); `*` for the workflow's own `env`, or the repository. */
  job: string;
  /** The step's name as GitHub shows it (its `name`, else `Run <uses or first command line>`). */
  step?: string;
  /** What is asked for and why this backend cannot do it. */
  message: string;
  /** The YAML value that asks for it. */
  evidence?: string;
}

export type RunnerOs = 'linux' | 'windows' | 'macos';

/** What a backend can execute. A container-capable backend allows more by changing these values only. */
export interface BackendCapabilities {
  /** How messages name the backend: "the local executor", "GitHub Actions". */
  label: string;
  /** `jobs.<id>.services` (service containers). */
  services: boolean;
  /** `jobs.<id>.container` (running a job's steps in a container). */
  jobContainers: boolean;
  actions: {
    /** Actions of other repositories (`owner/name@ref`), fetched and run as GitHub does. */
    marketplace: boolean;
    /** Actions of the repository itself (`uses: ./path`). */
    local: boolean;
    /** Docker container actions (`uses: docker://image`). */
    docker: boolean;
    /** Actions run by a built-in stand-in whatever the flags say: lower case `owner/name[/path]`, no `@ref`. */
    builtin: readonly string[];
  };
  reusableWorkflows: {
    /** `jobs.<id>.uses: owner/repo/.github/workflows/x.yml@ref`. */
    remote: boolean;
    /** A `strategy.matrix` on a job that calls a reusable workflow. */
    matrix: boolean;
    /** A called reusable workflow that calls another one. */
    nested: boolean;
  };
  runners: {
    selfHosted: boolean;
    gpu: boolean;
    os: readonly RunnerOs[];
  };
  /** `shell:` values (first word) the backend cannot run. */
  unsupportedShells: readonly string[];
  /**
   * Steps may run commands as root with `sudo` (GitHub-hosted runners: passwordless sudo). False where steps run as
   * an unprivileged user that cannot gain privileges (the local executor's sandbox).
   */
  root: boolean;
  /** Secrets the backend provides besides GITHUB_TOKEN (upper case). */
  secrets: readonly string[];
}

export interface WorkflowText {
  path: string;
  text: string;
}

export interface PreflightWorkflowInput {
  /** The standardized workflow, as installed in the benchmark commit. */
  workflow: WorkflowText;
  /** Reusable workflows of the repository kept in the commit (standardized as callees). */
  callees: readonly WorkflowText[];
  capabilities: BackendCapabilities;
}
