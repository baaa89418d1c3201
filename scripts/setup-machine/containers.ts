import { execFile, spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { promisify } from 'node:util';
import { buildImage, detectRuntime, RECIPES } from '../../src/executor/container/index.js';
import { systemTool } from '../../src/executor/sandbox/host-commands.js';

const run = promisify(execFile);
const isRoot = (): boolean => process.getuid?.() === 0;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const DOCKERD_LOG = '/var/log/ci-replay-dockerd.log';

/**
 * The container runtime of the local executor's container mode and its tests (docs/local-containers.md): as root,
 * installs Debian's docker.io and debootstrap when missing, starts `dockerd --bridge=none` (no default bridge: no
 * container can send traffic beyond this machine; log in /var/log/ci-replay-dockerd.log) when no daemon answers, and
 * builds the runner and service images from Debian packages (a no-op when their recipe's tag exists). Not root and
 * no daemon: reported, not a problem (container tests then say what to run). Returns the problems.
 */
export async function ensureContainers(options: { start: boolean; say: (line: string) => void }): Promise<string[]> {
  const { say } = options;
  // the runtime's own socket settings, as src/config.ts reads them for the worker
  const daemonEnv = Object.fromEntries(['DOCKER_HOST', 'CONTAINER_HOST', 'XDG_RUNTIME_DIR'].flatMap((key) => (process.env[key] ? [[key, process.env[key]]] : [])));
  let found = await detectRuntime('docker', daemonEnv, true);
  if (found.runtime === null && !isRoot()) {
    say(`  skip     container runtime        ${found.reason} (not root: jobs run on the host; container tests need \`sudo npm run setup\`)`);
    return [];
  }
  if (found.runtime === null && !options.start) return [`no container runtime answers (${found.reason}): run \`npm run setup\` as root`];
  if (found.runtime === null || systemTool('debootstrap') === null) {
    const missing = [...(systemTool('dockerd') === null ? ['docker.io'] : []), ...(systemTool('debootstrap') === null ? ['debootstrap'] : [])];
    if (missing.length > 0) {
      say(`installing ${missing.join(' ')} (apt-get)`);
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      try {
        await run('apt-get', ['update', '-qq'], { env, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
        await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=300', ...missing], { env, timeout: 1_800_000, maxBuffer: 64 * 1024 * 1024 });
      } catch (error) {
        return [`could not install ${missing.join(' ')}: ${(error as Error).message.split('\n')[0] ?? ''}`];
      }
    }
  }
  if (found.runtime === null) {
    const dockerd = systemTool('dockerd');
    if (dockerd === null) return ['dockerd not found after installing docker.io'];
    say(`starting dockerd --bridge=none (log ${DOCKERD_LOG})`);
    mkdirSync('/var/log', { recursive: true });
    const log = openSync(DOCKERD_LOG, 'a');
    const child = spawn(dockerd, ['--bridge=none', '--iptables=false', '--ip-forward=false', '--ip-masq=false'], { detached: true, stdio: ['ignore', log, log] });
    child.unref();
    for (let i = 0; i < 60 && found.runtime === null; i += 1) {
      await sleep(500);
      found = await detectRuntime('docker', daemonEnv, true);
    }
    if (found.runtime === null) return [`dockerd did not answer within 30 s (${found.reason}); see ${DOCKERD_LOG}`];
  }
  say(`  ok       container runtime        ${found.reason}`);
  const runtime = found.runtime;
  if (!options.start) return [];
  // the images are built at the same time, each debootstrap downloading into its own cache folder (images.ts): on an
  // empty cache 165 s for the three here, against 204 s one after the other
  const results = await Promise.all(
    RECIPES.map(async (recipe): Promise<string | null> => {
      try {
        const result = await buildImage(recipe, {
          runtime, mirror: process.env.LOCAL_IMAGE_MIRROR ?? 'http://deb.debian.org/debian', cacheDir: process.env.LOCAL_IMAGE_CACHE_DIR ?? '/var/cache/ci-replay/debootstrap',
          workDir: '/var/tmp/ci-replay-image-build', onLine: (line) => say(`    [${recipe.name}] ${line}`),
        });
        say(`  ok       image ${recipe.name.padEnd(16)} ${result.tag}${result.built ? ` (built in ${result.seconds.toFixed(0)} s)` : ''}`);
        return null;
      } catch (error) {
        return `image ${recipe.name} could not be built: ${(error as Error).message}`;
      }
    }),
  );
  return results.filter((problem) => problem !== null);
}
