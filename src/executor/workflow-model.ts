import { parse } from 'yaml';
import { invalidInput } from '../errors.js';
import type { DispatchInputDef } from './dispatch-inputs.js';
import { parseDispatchInputs } from './dispatch-inputs.js';

export interface RunDefaults {
  shell?: string;
  workingDirectory?: string;
}

export interface StepDef {
  id?: string;
  name?: string;
  if?: string | boolean;
  run?: string;
  uses?: string;
  with: Record<string, unknown>;
  env: Record<string, unknown>;
  shell?: string;
  workingDirectory?: string;
  continueOnError: boolean | string;
  timeoutMinutes?: number | string;
}

export interface JobDef {
  key: string;
  name?: string;
  needs: string[];
  if?: string | boolean;
  runsOn: string[];
  env: Record<string, unknown>;
  defaults: RunDefaults;
  steps: StepDef[];
  outputs: Record<string, string>;
  timeoutMinutes?: number | string;
  continueOnError: boolean | string;
  strategy: { matrix?: unknown; failFast: boolean };
  /** Reasons this job cannot run locally (services, container, remote reusable workflow). */
  unsupported: string[];
  /** The raw `container:` and `services:` (evaluated at "Set up job" when jobs run in containers). */
  container?: unknown;
  services?: unknown;
  /** `uses: ./.github/workflows/x.yml` of a job calling a local reusable workflow, with its `with:`. */
  callsWorkflow?: { path: string; with: Record<string, unknown> };
  /** Set on the jobs inlined from a reusable workflow. */
  calledFrom?: { callerKey: string; callerName: string; calleeKey: string; workflow: WorkflowDef; inputs: Record<string, unknown>; inputsNeeds: string[] };
  /** Set on the stand-in of a caller job once its reusable workflow is inlined: it aggregates the callee jobs. */
  aggregate?: { jobs: Record<string, string>; outputs: Record<string, string>; inputs: Record<string, unknown>; inputsNeeds: string[] };
}

export interface WorkflowDef {
  name: string;
  path: string;
  /** `on.workflow_call` of a reusable workflow: input defaults and output expressions. */
  call: { inputs: Record<string, unknown>; outputs: Record<string, string> };
  /** The `on.workflow_dispatch.inputs` declarations (type, default, choice options); absent when none are declared. */
  dispatchInputs?: Record<string, DispatchInputDef>;
  env: Record<string, unknown>;
  defaults: RunDefaults;
  jobs: JobDef[];
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const str = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
const list = (v: unknown): string[] =>
  v === undefined || v === null ? [] : Array.isArray(v) ? v.map((x) => String(x)) : [String(v)];

function parseDefaults(v: unknown): RunDefaults {
  const run = obj(obj(v).run);
  const out: RunDefaults = {};
  const shell = str(run.shell);
  const wd = str(run['working-directory']);
  if (shell !== undefined) out.shell = shell;
  if (wd !== undefined) out.workingDirectory = wd;
  return out;
}

function parseCondition(v: unknown): string | boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  return str(v);
}

function parseStep(raw: unknown, jobKey: string, index: number): StepDef {
  if (!isObj(raw)) throw invalidInput('invalid_workflow', `jobs.${jobKey}.steps[${index}] is not a mapping`);
  const step: StepDef = {
    with: obj(raw.with),
    env: obj(raw.env),
    continueOnError: typeof raw['continue-on-error'] === 'boolean' ? raw['continue-on-error'] : (str(raw['continue-on-error']) ?? false),
  };
  const assign = <K extends keyof StepDef>(key: K, value: StepDef[K] | undefined): void => {
    if (value !== undefined) step[key] = value;
  };
  assign('id', str(raw.id));
  assign('name', str(raw.name));
  assign('if', parseCondition(raw.if));
  assign('run', str(raw.run));
  assign('uses', str(raw.uses));
  assign('shell', str(raw.shell));
  assign('workingDirectory', str(raw['working-directory']));
  const timeout = raw['timeout-minutes'];
  if (typeof timeout === 'number' || typeof timeout === 'string') step.timeoutMinutes = timeout;
  if (step.run === undefined && step.uses === undefined) {
    throw invalidInput('invalid_workflow', `jobs.${jobKey}.steps[${index}] has neither run nor uses`);
  }
  return step;
}

/** Reasons that hold only where jobs run on the host (a container runtime runs services and `container:` jobs). */
export const SERVICES_UNSUPPORTED = 'services are not supported by the local executor';
export const CONTAINER_UNSUPPORTED = 'container jobs are not supported by the local executor';

function parseJob(key: string, raw: unknown): JobDef {
  if (!isObj(raw)) throw invalidInput('invalid_workflow', `jobs.${key} is not a mapping`);
  const unsupported: string[] = [];
  if (raw.services !== undefined) unsupported.push(SERVICES_UNSUPPORTED);
  if (raw.container !== undefined) unsupported.push(CONTAINER_UNSUPPORTED);
  const uses = str(raw.uses);
  if (uses !== undefined && !uses.startsWith('./')) {
    unsupported.push(`reusable workflows from other repositories are not supported by the local executor: ${uses}`);
  }
  const strategy = obj(raw.strategy);
  const job: JobDef = {
    key,
    needs: list(raw.needs),
    runsOn: list(raw['runs-on']),
    env: obj(raw.env),
    defaults: parseDefaults(raw.defaults),
    steps: Array.isArray(raw.steps) ? raw.steps.map((s, i) => parseStep(s, key, i)) : [],
    outputs: Object.fromEntries(Object.entries(obj(raw.outputs)).map(([k, v]) => [k, str(v) ?? ''])),
    continueOnError: typeof raw['continue-on-error'] === 'boolean' ? raw['continue-on-error'] : (str(raw['continue-on-error']) ?? false),
    strategy: { matrix: strategy.matrix, failFast: strategy['fail-fast'] !== false },
    unsupported,
  };
  if (raw.container !== undefined) job.container = raw.container;
  if (raw.services !== undefined) job.services = raw.services;
  const name = str(raw.name);
  if (name !== undefined) job.name = name;
  const condition = parseCondition(raw.if);
  if (condition !== undefined) job.if = condition;
  const timeout = raw['timeout-minutes'];
  if (typeof timeout === 'number' || typeof timeout === 'string') job.timeoutMinutes = timeout;
  if (uses?.startsWith('./') === true) job.callsWorkflow = { path: uses.slice(2), with: obj(raw.with) };
  if (uses === undefined && job.steps.length === 0) {
    throw invalidInput('invalid_workflow', `jobs.${key} has no steps`);
  }
  return job;
}

/** Parses a workflow file; structural problems are `invalid_input` errors. */
export function parseWorkflow(text: string, path: string): WorkflowDef {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw invalidInput('invalid_workflow', `workflow ${path} is not valid YAML: ${(error as Error).message}`);
  }
  if (!isObj(doc) || !isObj(doc.jobs)) throw invalidInput('invalid_workflow', `workflow ${path} has no jobs`);
  const jobs = Object.entries(doc.jobs).map(([key, raw]) => parseJob(key, raw));
  const keys = new Set(jobs.map((j) => j.key));
  for (const job of jobs) {
    for (const need of job.needs) {
      if (!keys.has(need)) throw invalidInput('invalid_workflow', `jobs.${job.key} needs unknown job ${need}`);
    }
  }
  assertAcyclic(jobs);
  const workflowCall = obj(obj(doc.on).workflow_call);
  const call = {
    inputs: Object.fromEntries(Object.entries(obj(workflowCall.inputs)).map(([k, v]) => [k, obj(v).default ?? null])),
    outputs: Object.fromEntries(Object.entries(obj(workflowCall.outputs)).map(([k, v]) => [k, str(obj(v).value) ?? ''])),
  };
  const dispatch = obj(obj(doc.on).workflow_dispatch).inputs;
  const workflow: WorkflowDef = { name: str(doc.name) ?? path, path, call, env: obj(doc.env), defaults: parseDefaults(doc.defaults), jobs };
  if (isObj(dispatch)) workflow.dispatchInputs = parseDispatchInputs(dispatch, path);
  return workflow;
}

function assertAcyclic(jobs: JobDef[]): void {
  const byKey = new Map(jobs.map((j) => [j.key, j]));
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (key: string): void => {
    if (state.get(key) === 'done') return;
    if (state.get(key) === 'visiting') throw invalidInput('invalid_workflow', `job dependency cycle through ${key}`);
    state.set(key, 'visiting');
    for (const need of byKey.get(key)?.needs ?? []) visit(need);
    state.set(key, 'done');
  };
  for (const job of jobs) visit(job.key);
}
