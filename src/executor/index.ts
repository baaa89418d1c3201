/**
 * Local workflow executor: runs a (standardized) GitHub Actions workflow for one commit on this host,
 * without Docker, and reports it the way GitHub does (normalized workflow_run / workflow_job events,
 * raw logs in GitHub's format, step lists with the synthetic "Set up job" / "Complete job" steps).
 *
 * Choices where GitHub cannot be copied exactly:
 * - Each job gets a fresh directory under `<workRoot>/run-<id>-<attempt>-*` (removed after the run);
 *   `actions/checkout` fetches the commit there as GitHub does (`fetch-depth`: default 1 = shallow, 0 = all history, whose
 *   objects a local source lends through alternates instead of copying). A local source is never shown to steps:
 *   `origin` is a view of it holding only the run's commit, its history and the tags into it (source-view.ts).
 * - Steps run with a clean environment (PATH/HOME/LANG from `hostEnv` or defaults, plus `env`), each in its
 *   own process group; on step timeout, job timeout or cancel the group gets SIGTERM then SIGKILL after
 *   `killGraceMs`; every group the job started is SIGKILLed when the job ends ("Cleaning up orphan processes").
 * - Each job runs in a step sandbox (`sandbox` option, sandbox/index.ts): its own pid, mount, ipc, uts (and, with
 *   network `none`, network) namespaces, an unprivileged uid when the worker is root, the service's directories
 *   hidden, rlimits and a watchdog for memory, processes and output; when the job ends the namespace goes, and
 *   every process left in it (setsid() or not) with it. Without namespaces (`off`, or `auto` where they cannot be
 *   created) steps run on the host, and a process that calls setsid() escapes the group kill.
 * - Values in `secretValues` and `::add-mask::` are masked in the job log, annotations and summary.
 * - Past `outputCapBytes` the job log gets one `##[warning]Log truncated ...` line and further output is
 *   discarded; the step keeps running and workflow commands (outputs, masks, annotations) are still honoured.
 * - A step over its `timeout-minutes` fails (`The action '<name>' has timed out after N minutes.`); a job over its
 *   `timeout-minutes` is cancelled (as GitHub reports it) and `JobResult.timedOut` says why.
 * - Jobs skipped because of `needs`/`if` get an id and a result but no events and no log, as on GitHub.
 * - `github.event` / GITHUB_EVENT_PATH: a `push` payload built from the run's commit (`before` = its first parent)
 *   or a `workflow_dispatch` one (inputs: given values or declared defaults, typed in the `inputs` context);
 *   ids in it are made up; other events get repository + sender only.
 * - Unsupported syntax (services, container, remote reusable workflows, other actions) fails the job or
 *   step with an explicit `##[error]` message; local reusable workflows (`uses: ./.github/workflows/x.yml`) are
 *   inlined as `<caller> / <job>` jobs.
 */
export { runWorkflow } from './run-workflow/index.js';
export type { Annotation, ArtifactResult, JobConclusion, JobResult, RunWorkflowOptions, RunWorkflowResult } from './types.js';
export { parseWorkflow } from './workflow-model.js';
export type { JobDef, StepDef, WorkflowDef } from './workflow-model.js';
export { logTimestamp } from './log-writer.js';
export type { SandboxSettings, StepLimits } from './sandbox/index.js';
export { DEFAULT_SANDBOX_SETTINGS, describeSandbox, firewallAvailable } from './sandbox/index.js';
export { BUILTIN_ACTION_NAMES } from './builtin-actions/index.js';
export type { ActionSettings } from './actions/index.js';
