import type { Deliverer } from './webhooks/deliverer.js';
import type { WorkflowRunner } from './runs/runner.js';
import type { SimState } from './types.js';
import type { SimLimits } from './limits.js';

export interface RunFaultRule {
  repo?: string;
  workflowPath?: string;
  branch?: string;
  times?: number;
}

export interface SimContext {
  state: SimState;
  base: () => string;
  deliverer: Deliverer;
  runner: WorkflowRunner;
  dataDir: string;
  forkDelayMs: number;
  queueDelayMs: number;
  signedUrlTtlMs: number;
  signingKey: Buffer;
  /** Runs that match a rule stay queued forever. */
  neverStartRules: RunFaultRule[];
  /** Repositories (lower-case full name) whose fork stays "being created". */
  stuckForks: Set<string>;
  /** Per-account concurrent jobs, per-installation rate limits (limits.ts). */
  limits: SimLimits;
  /** Background work (run executions, fork completions) awaited by close(). */
  track: (work: Promise<unknown>) => void;
}
