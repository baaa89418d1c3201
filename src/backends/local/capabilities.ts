import { BUILTIN_ACTION_NAMES } from '../../executor/index.js';
import type { BackendCapabilities } from '../../workflows/index.js';

/**
 * What the local executor (src/executor/) runs today: jobs on this Linux host, `run:` steps in bash, sh, python
 * or a custom `{0}` shell, the actions it has built-in stand-ins for, and local reusable workflows one level
 * deep without a matrix. No service or job containers, no other actions (marketplace, `./` composite or
 * JavaScript, `docker://`), no self-hosted, GPU, Windows or macOS runners, no pwsh/powershell/cmd, no secrets.
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
};
