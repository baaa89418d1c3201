import { imageExists, imageTag, POSTGRES_RECIPE, pullImage, REDIS_RECIPE } from './images.js';
import type { ContainerRuntime } from './runtime.js';

/**
 * Public images a workflow names that the project can stand in for with an image built from Debian packages
 * (no registry is reachable offline): the repository name without registry or tag → the built image.
 */
export const IMAGE_STAND_INS: Record<string, string> = {
  redis: imageTag(REDIS_RECIPE),
  postgres: imageTag(POSTGRES_RECIPE),
};

/** `docker.io/library/redis:7-alpine` → `redis`. */
export function repositoryName(image: string): string {
  const noDigest = image.split('@')[0] ?? image;
  const lastSlash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  const withoutTag = colon > lastSlash ? noDigest.slice(0, colon) : noDigest;
  return withoutTag.replace(/^(docker\.io\/)?(library\/)?/, '');
}

/**
 * The image to run for `wanted`: itself when present locally, else pulled anonymously, else a built stand-in
 * (said in the job log). Throws naming the image and what to do when none works.
 */
export async function resolveImage(runtime: ContainerRuntime, wanted: string, note: (line: string) => void): Promise<string> {
  if (await imageExists(runtime, wanted)) return wanted;
  const standIn = IMAGE_STAND_INS[repositoryName(wanted)];
  if (standIn !== undefined && (await imageExists(runtime, standIn))) {
    note(`Image ${wanted} is not available locally; using ${standIn} (built from Debian packages by \`ci-replay images build\`)`);
    return standIn;
  }
  if (wanted.startsWith('ci-replay/')) throw new Error(`image ${wanted} is not built on this machine: run \`ci-replay images build\``);
  const pulled = await pullImage(runtime, wanted, 300_000);
  if (pulled.ok) return wanted;
  throw new Error(`image ${wanted} is not available locally and ${pulled.message}`);
}
