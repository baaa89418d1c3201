import { execFileSync } from 'node:child_process';
import { DEFAULT_CONTAINER_SETTINGS, detectRuntime, imageExists, imageTag, POSTGRES_RECIPE, REDIS_RECIPE, RUNNER_RECIPE } from '../../src/executor/container/index.js';
import type { ContainerRuntime, ContainerSettings } from '../../src/executor/container/index.js';

/**
 * The container runtime the container tests use. On a machine that should have one (root, as CI runs: the machine
 * setup installs docker.io, starts `dockerd --bridge=none` and builds the images) a missing runtime or image is an
 * error naming what to run; elsewhere (not root) the container tests cannot run and say so.
 */
export async function requireContainerRuntime(): Promise<{ runtime: ContainerRuntime; settings: ContainerSettings; runnerImage: string; redisImage: string; postgresImage: string }> {
  const { runtime, reason } = await detectRuntime('docker', {});
  if (runtime === null) {
    throw new Error(`container tests need a docker daemon (${reason}): run \`npm run setup\` as root (scripts/setup-machine installs docker.io and starts dockerd --bridge=none)`);
  }
  const runnerImage = imageTag(RUNNER_RECIPE);
  const redisImage = imageTag(REDIS_RECIPE);
  const postgresImage = imageTag(POSTGRES_RECIPE);
  for (const image of [runnerImage, redisImage, postgresImage]) {
    if (!(await imageExists(runtime, image))) throw new Error(`container tests need the image ${image}: run \`npm run setup\` (or \`ci-replay images build\`)`);
  }
  return { runtime, settings: { ...DEFAULT_CONTAINER_SETTINGS, runtime: 'docker' }, runnerImage, redisImage, postgresImage };
}

/** Job containers the runtime still has for a job id prefix (none may be left once a run ended). */
export function leftoverContainers(runtime: ContainerRuntime): string[] {
  const out = execFileSync(runtime.bin, ['ps', '-a', '--filter', 'label=ci-replay.job', '--format', '{{.Names}}'], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.trim() !== '');
}
