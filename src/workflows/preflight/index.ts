/**
 * The preflight: what in a standardized workflow a backend cannot execute, found before anything is pushed.
 * Pure: the workflow text (and the reusable workflows kept in the commit) against a description of the
 * backend's capabilities. Backends add what only they can know (GitHub: whether Actions are enabled).
 */
import { jobViews, objAt, parsePlain, textOf, type JobView, type Obj } from './model.js';
import { mayRun } from './conditions.js';
import { runnerBlockers } from './runners.js';
import { containerBlockers, serviceUrlBlockers } from './services.js';
import { jobSecretBlockers, workflowSecretBlockers } from './secrets.js';
import { stepBlockers } from './steps.js';
import type { BackendCapabilities, Blocker, PreflightWorkflowInput } from './types.js';

export type { BackendCapabilities, Blocker, BlockerCode, PreflightWorkflowInput, RunnerOs, WorkflowText } from './types.js';
export { actionName } from './steps.js';
export { renderBlockers, summarizeBlockers } from './render.js';

/** GitHub-hosted runners: everything a workflow may ask for, no secrets but GITHUB_TOKEN. */
export const GITHUB_ACTIONS_CAPABILITIES: BackendCapabilities = {
  label: 'GitHub Actions',
  services: true,
  jobContainers: true,
  actions: { marketplace: true, local: true, docker: true, builtin: [] },
  reusableWorkflows: { remote: true, matrix: true, nested: true },
  runners: { selfHosted: true, gpu: true, os: ['linux', 'windows', 'macos'] },
  unsupportedShells: [],
  secrets: [],
  root: true,
};

const normalize = (path: string): string => path.replace(/^\.\//, '').replace(/^\/+/, '').split('@')[0] ?? '';

function jobBlockers(job: JobView, capabilities: BackendCapabilities): Blocker[] {
  return [
    ...runnerBlockers(job, capabilities),
    ...containerBlockers(job, capabilities),
    ...serviceUrlBlockers(job, capabilities),
    ...stepBlockers(job, capabilities),
    ...jobSecretBlockers(job, capabilities),
  ];
}

function reusableBlocker(job: JobView, message: string, evidence: string): Blocker {
  return { code: 'unsupported_reusable_workflow', job: job.id, evidence, message };
}

/** A job that calls a reusable workflow: the call itself, then the called jobs (`caller/callee`). */
function callBlockers(job: JobView, uses: string, callees: ReadonlyMap<string, Obj>, capabilities: BackendCapabilities, depth: number): Blocker[] {
  const label = capabilities.label;
  if (!uses.startsWith('./')) {
    return capabilities.reusableWorkflows.remote ? [] : [reusableBlocker(job, `job ${job.id} calls the reusable workflow ${uses} of another repository, which ${label} cannot fetch`, uses)];
  }
  if (depth > 0 && !capabilities.reusableWorkflows.nested) {
    return [reusableBlocker(job, `job ${job.id} calls ${uses} from a called workflow; ${label} runs one level of reusable workflows only`, uses)];
  }
  const blockers: Blocker[] = [];
  if (objAt(job.raw.strategy).matrix !== undefined && !capabilities.reusableWorkflows.matrix) {
    blockers.push(reusableBlocker(job, `job ${job.id} calls ${uses} with a matrix, which ${label} does not support`, uses));
  }
  const callee = callees.get(normalize(uses));
  if (callee === undefined || depth > 3) return blockers;
  blockers.push(...workflowSecretBlockers(callee, capabilities).map((blocker) => ({ ...blocker, job: job.id })));
  for (const inner of jobViews(callee, `${job.id}/`)) blockers.push(...analyzeJob(inner, callees, capabilities, depth + 1));
  return blockers;
}

function analyzeJob(job: JobView, callees: ReadonlyMap<string, Obj>, capabilities: BackendCapabilities, depth: number): Blocker[] {
  if (!mayRun(job.raw.if, {})) return [];
  const uses = textOf(job.raw.uses);
  if (uses !== undefined) return [...callBlockers(job, uses.trim(), callees, capabilities, depth), ...jobSecretBlockers(job, capabilities)];
  return jobBlockers(job, capabilities);
}

function dedupe(blockers: readonly Blocker[]): Blocker[] {
  const seen = new Set<string>();
  return blockers.filter((blocker) => {
    const key = JSON.stringify([blocker.code, blocker.job, blocker.step ?? null, blocker.evidence ?? null, blocker.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Everything in the workflow (and the reusable workflows it calls) the backend described cannot execute. */
export function preflightWorkflow(input: PreflightWorkflowInput): Blocker[] {
  const doc = parsePlain(input.workflow.text);
  if (doc === null) return [];
  const callees = new Map<string, Obj>();
  for (const file of input.callees) {
    const parsed = parsePlain(file.text);
    if (parsed !== null) callees.set(normalize(file.path), parsed);
  }
  const blockers = [...workflowSecretBlockers(doc, input.capabilities)];
  for (const job of jobViews(doc)) blockers.push(...analyzeJob(job, callees, input.capabilities, 0));
  return dedupe(blockers);
}
