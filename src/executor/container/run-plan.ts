import type { Logger } from 'pino';
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

export async function planContainers(settings: ContainerSettings, logger: Logger): Promise<ContainerRunPlan> {
  const { runtime, reason } = await detectRuntime(settings.runtime);
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
