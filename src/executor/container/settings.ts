/** Which container runtime runs jobs: `auto` = docker, else podman, when its daemon answers; otherwise the host sandbox. */
export type RuntimeChoice = 'auto' | 'docker' | 'podman' | 'host';

/** `none`: a job container has only loopback (services share it); `egress`: the runtime's default network. */
export type ContainerNetwork = 'none' | 'egress';

export interface ContainerSettings {
  runtime: RuntimeChoice;
  /** The runner image of `runs-on` jobs; empty: the image `ci-replay images build` makes from the default recipe. */
  runnerImage: string;
  /** Per-label images (`ubuntu-22.04` → image), checked before {@link runnerImage}. */
  labelImages: Record<string, string>;
  network: ContainerNetwork;
  /** The runtime network job containers join with `egress` (created by the operator; never the host's network). */
  egressNetwork: string;
  /** CPUs of each job container (docker --cpus). */
  cpus: number;
  /** Run steps as this uid:gid pair's user (from EXECUTOR_RUN_AS_UID) unless `root`. */
  user: 'unprivileged' | 'root';
  /** Longest wait for a service to report healthy. */
  serviceHealthTimeoutMs: number;
  /** Node.js binary bind-mounted read-only into each job container at /__e/node20/bin/node (JS actions); null: the worker's own. */
  hostNode: string | null;
  /** DOCKER_HOST, CONTAINER_HOST, XDG_RUNTIME_DIR as configured: how the runtime's CLI and API client find the daemon. */
  daemonEnv: Record<string, string>;
}

export const DEFAULT_CONTAINER_SETTINGS: ContainerSettings = {
  runtime: 'host',
  runnerImage: '',
  labelImages: {},
  network: 'none',
  egressNetwork: 'bridge',
  cpus: 2,
  user: 'unprivileged',
  serviceHealthTimeoutMs: 120_000,
  hostNode: null,
  daemonEnv: {},
};

/** Parses `ubuntu-22.04=img:tag,ubuntu-latest=img2` (LOCAL_RUNNER_IMAGE_LABELS). */
export function parseLabelImages(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',').map((p) => p.trim()).filter((p) => p !== '')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || eq === part.length - 1) throw new Error(`invalid label image '${part}': expected <label>=<image>`);
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}
