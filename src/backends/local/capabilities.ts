import { BUILTIN_ACTION_NAMES, describeSandbox, type ActionSettings, type SandboxSettings } from '../../executor/index.js';
import { usableRuntime, type ContainerSettings } from '../../executor/container/index.js';
import type { BackendCapabilities } from '../../workflows/index.js';

/**
 * What the local executor (src/executor/) runs today: jobs on this Linux host, `run:` steps in bash, sh, python
 * or a custom `{0}` shell, the actions it has built-in stand-ins for, and local reusable workflows one level
 * deep without a matrix. No service or job containers, no other actions (marketplace, `./` composite or
 * JavaScript, `docker://`), no self-hosted, GPU, Windows or macOS runners, no pwsh/powershell/cmd, no secrets,
 * and, in the step sandbox, no root (steps run as an unprivileged user with no_new_privs: `sudo` cannot elevate).
 * A container-capable executor widens this description; the preflight follows.
 */
export const LOCAL_EXECUTOR_CAPABILITIES: BackendCapabilities = {
  label: 'the local executor',
  services: false,
  jobContainers: false,
  actions: { marketplace: false, local: false, docker: false, builtin: BUILTIN_ACTION_NAMES },
  reusableWorkflows: { remote: false, matrix: false, nested: false },
  runners: { selfHosted: false, gpu: false, os: ['linux'] },
  unsupportedShells: ['pwsh', 'powershell', 'cmd'],
  secrets: [],
  root: false,
};

/**
 * The capabilities of this worker's local executor with these sandbox settings: steps cannot become root only where
 * the step sandbox will really be used (namespaces: an unprivileged uid, or no capabilities in a user namespace, and
 * no_new_privs either way). Without it (EXECUTOR_SANDBOX=off, or auto where namespaces cannot be created) steps run
 * as the worker user, and whether `sudo` works there is the host's business, not a blocker.
 */
export async function localExecutorCapabilities(settings: SandboxSettings, actions?: ActionSettings, container?: ContainerSettings): Promise<BackendCapabilities> {
  // with a container runtime answering (LOCAL_RUNTIME, docs/local-containers.md) jobs run in containers: services,
  // `container:` jobs and Docker actions run; root only with LOCAL_CONTAINER_USER=root
  const runtime = container === undefined ? null : (await usableRuntime(container)).runtime;
  if (container !== undefined && runtime !== null) {
    return {
      ...LOCAL_EXECUTOR_CAPABILITIES, services: true, jobContainers: true,
      actions: { ...LOCAL_EXECUTOR_CAPABILITIES.actions, marketplace: actions !== undefined, docker: actions !== undefined, local: true },
      root: container.user === 'root',
    };
  }
  const sandbox = await describeSandbox(settings);
  // with action settings, marketplace JavaScript and composite actions are fetched, pinned and cached
  // (src/executor/actions/, docs/local-actions.md); a Docker action among them fails at "Set up job" without a runtime.
  // `./path` actions are read from the workspace at their step (a Docker one fails there without a runtime)
  const marketplace = actions !== undefined;
  return { ...LOCAL_EXECUTOR_CAPABILITIES, actions: { ...LOCAL_EXECUTOR_CAPABILITIES.actions, marketplace, local: true }, root: sandbox.mode !== 'namespaces' };
}
