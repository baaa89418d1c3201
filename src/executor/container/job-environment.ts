import { existsSync, statSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';
import { systemTool } from '../sandbox/host-commands.js';
import type { JobContainer } from './job-container.js';
import { limitOptions } from './limits.js';
import type { ContainerRuntime } from './runtime.js';
import { cli, cliEnv } from './runtime.js';

/** A command line ready for `spawnProcess` (file, args, cwd and the environment to spawn it with). */
export interface LaunchedCommand {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/** A Docker action's step container (`runs.using: docker`), run next to the job container. */
export interface ImageStep {
  image: string;
  /** Overrides the image's entrypoint (`runs.entrypoint`). */
  entrypoint?: string;
  args: string[];
  /** The step's environment (INPUT_*, GITHUB_*, …): forwarded by name, never on the command line. */
  env: Record<string, string>;
  /** Working directory inside (the workspace by default). */
  workdir: string;
}

/**
 * Where a job's steps run: the host (the step sandbox of src/executor/sandbox/) or a container. Paths are the same
 * for the executor and for steps in both kinds (a container binds the job directory at its own path), so a path
 * written into GITHUB_ENV, an action's directory under RUNNER_TEMP or the workspace need no translation.
 *
 * To run a process as a step (a JavaScript action's `node main.js`): `runStepProcess(rt, …)` of
 * job-runner/run-script.ts, which uses the job's launcher (docker exec / nsenter), watchdog, limits and output
 * handling (workflow commands, masking).
 */
export interface JobEnvironment {
  kind: 'host' | 'container';
  paths: { jobDir: string; workspace: string; temp: string; home: string };
  /** A Node.js 20+ binary steps can run (JavaScript actions): `/__e/node20/bin/node` in a container; null if none. */
  node: string | null;
  /** The job container (null on the host). */
  container: { runtime: ContainerRuntime; name: string; image: string } | null;
  /** `job.services.<id>` of the job's contexts ({} without services). */
  services: Record<string, { id: string; network: string; ports: Record<string, string> }>;
  /** Finds an executable the way a step's shell would (inside the container, or on the host). */
  which(name: string, path: string): string | null;
  /**
   * The command that runs a Docker action's image as a step (container kind only; null on the host): `docker run
   * --rm` in the job container's network namespace, the job directory bound at its own path, the job's limits,
   * no_new_privs, the step's variables forwarded by name.
   */
  imageCommand(step: ImageStep): LaunchedCommand | null;
  /**
   * Builds a Docker action's image from its Dockerfile (`docker build --network none`: no download during the
   * build). Fails on the host kind.
   */
  buildImage(contextDir: string, dockerfile: string, tag: string): Promise<{ ok: true } | { ok: false; message: string }>;
}

/** Finds an executable in PATH on the host. */
export function hostWhich(name: string, path: string): string | null {
  if (name.includes('/')) return existsSync(name) ? name : null;
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

export function hostEnvironment(paths: JobEnvironment['paths']): JobEnvironment {
  const node = systemTool('node') ?? process.execPath;
  return {
    kind: 'host', paths, node, container: null, services: {}, which: hostWhich,
    imageCommand: () => null,
    buildImage: () => Promise.resolve({ ok: false, message: 'Docker actions need a container runtime (LOCAL_RUNTIME=auto|docker|podman with a daemon answering); this job runs on the host' }),
  };
}

export function containerEnvironment(c: JobContainer, paths: JobEnvironment['paths']): JobEnvironment {
  const within = (file: string): boolean => c.boundDirs.some((dir) => file === dir || file.startsWith(`${dir}${sep}`));
  return {
    kind: 'container', paths, node: c.node, container: { runtime: c.runtime, name: c.name, image: c.image }, services: c.services,
    which: (name, path) => {
      if (name.includes('/')) return c.systemFiles.has(name) || (within(name) && existsSync(name)) ? name : null;
      for (const dir of path.split(delimiter)) {
        if (dir === '') continue;
        const candidate = join(dir, name);
        if (c.systemFiles.has(candidate)) return candidate;
        if (within(candidate) && hostWhich(candidate, '') !== null) return candidate;
      }
      return null;
    },
    imageCommand: (step) => {
      const runtimeEnv = cliEnv(c.runtime);
      const forward = Object.keys(step.env).flatMap((k) => (k in runtimeEnv ? ['-e', `${k}=${step.env[k] ?? ''}`] : ['-e', k]));
      return {
        file: c.runtime.bin,
        args: [
          'run', '--rm', '--label', `ci-replay.step-of=${c.name}`, `--network=container:${c.name}`, '--security-opt', 'no-new-privileges',
          ...limitOptions(c.limits, 1, c.runtime.kind), '-v', `${paths.jobDir}:${paths.jobDir}`, '-v', `${join(paths.jobDir, 'tmp')}:/tmp`, '-w', step.workdir, ...forward,
          ...(step.entrypoint !== undefined ? ['--entrypoint', step.entrypoint] : []), step.image, ...step.args,
        ],
        cwd: paths.jobDir,
        env: { ...step.env, ...runtimeEnv },
      };
    },
    buildImage: async (contextDir, dockerfile, tag) => {
      const r = await cli(c.runtime, ['build', '--network', 'none', '-q', '-f', join(contextDir, dockerfile), '-t', tag, contextDir], { timeoutMs: 900_000 });
      return r.code === 0 ? { ok: true } : { ok: false, message: `docker build of ${tag} failed: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}` };
    },
  };
}
