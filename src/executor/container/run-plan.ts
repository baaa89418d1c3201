import type { Logger } from 'pino';
import { imageExists, runnerImageFor } from './images.js';
import type { ContainerRuntime } from './runtime.js';
import { detectRuntime } from './runtime.js';
import type { ContainerSettings } from './settings.js';

/** A run's container decision (once per run): the runtime jobs use, or why they run on the host. */
export interface ContainerRunPlan {
  settings: ContainerSettings;
  /** Null: jobs run on the host (LOCAL_RUNTIME=host, or auto without a runtime). */
  runtime: ContainerRuntime | null;
  /** Set when LOCAL_RUNTIME=docker|podman names a runtime that does not answer: every job fails at "Set up job". */
  unavailable: string | null;
  /** Lines for each job log's "Set up job". */
  notes: string[];
}

const warned = new Set<string>();

/**
 * The runtime jobs will use with these settings, or null and why: `auto` needs the runner image too (a machine with
 * docker but no built image keeps running jobs on the host).
 */
export async function usableRuntime(settings: ContainerSettings): Promise<{ runtime: ContainerRuntime | null; reason: string }> {
  const { runtime, reason } = await detectRuntime(settings.runtime, settings.daemonEnv);
  if (runtime === null || settings.runtime !== 'auto') return { runtime, reason };
  const image = runnerImageFor([], settings);
  if (await imageExists(runtime, image)) return { runtime, reason };
  return { runtime: null, reason: `${reason}, but the runner image ${image} is not built (ci-replay images build)` };
}

export async function planContainers(settings: ContainerSettings, logger: Logger): Promise<ContainerRunPlan> {
  const { runtime, reason } = await usableRuntime(settings);
  if (runtime !== null) return { settings, runtime, unavailable: null, notes: [`Container runtime: ${reason} (LOCAL_RUNTIME=${settings.runtime})`] };
  if (settings.runtime === 'docker' || settings.runtime === 'podman') {
    return { settings, runtime: null, unavailable: `The container runtime is required (LOCAL_RUNTIME=${settings.runtime}) but does not answer: ${reason}`, notes: [] };
  }
  if (settings.runtime === 'auto' && !warned.has(reason)) {
    warned.add(reason);
    logger.warn({ reason }, 'no container runtime answers (LOCAL_RUNTIME=auto): jobs run on the host in the step sandbox');
  }
  return {
    settings, runtime: null, unavailable: null,
    notes: [settings.runtime === 'host' ? 'Container runtime: none (LOCAL_RUNTIME=host): steps run on the host' : `Container runtime: none answers (${reason}); steps run on the host (LOCAL_RUNTIME=auto)`],
  };
}
