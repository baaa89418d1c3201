/**
 * The step sandbox of the local executor (see the README's "Isolation model"): each job gets pid, mount, ipc and uts
 * namespaces (and a network namespace with `none`) held by one `unshare` process; each step enters them with
 * `nsenter`, gets rlimits from `prlimit` and an unprivileged uid from `setpriv` (when the worker is root). In the
 * mount namespace the service's directories, /root, /home and /run are hidden under empty tmpfs mounts, the job
 * directory is put back read-write, toolchains read-only, and /tmp is the job's own. A watchdog over the job's
 * processes enforces the memory and process limits and kills the step with a clear error.
 */
export type { SandboxMode, SandboxNetwork, SandboxSettings, StepLimits } from './settings.js';
export { DEFAULT_SANDBOX_SETTINGS, DEFAULT_STEP_LIMITS } from './settings.js';
export type { SandboxRunPlan } from './run-plan.js';
export { describeSandbox, planSandbox } from './run-plan.js';
export type { JobSandbox, StepLauncher } from './job-sandbox.js';
export { hostLauncher, PROTECTED_TEMP_ENTRIES, startJobSandbox } from './job-sandbox.js';
export type { LimitName } from './step-limits.js';
export { breachOf, LIMIT_REASONS, limitMessage, limitOfFailure, nearLimits } from './step-limits.js';
export { killJobProcesses, listJobProcesses, usageOf } from './job-processes.js';
export { firewallAvailable, installStepFirewall, removeStepFirewall } from './firewall.js';
export { probeSandbox } from './probe.js';
export { assertNoSymlinkEscape, readJobFile } from './safe-files.js';
