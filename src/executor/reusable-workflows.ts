import { isAppError } from '../errors.js';
import type { JobDef, WorkflowDef } from './workflow-model.js';
import { parseWorkflow } from './workflow-model.js';

/**
 * Inlines local reusable workflows (`jobs.<id>.uses: ./.github/workflows/x.yml`) like GitHub runs
 * them: each called job becomes a job `<caller>/<callee>` named `<caller name> / <callee name>`, the
 * root ones inherit the caller's `needs` and `if`, and the caller key stays in the graph as an
 * aggregate (its result and `outputs` as `needs.<caller>` sees them). One level of nesting; anything
 * that cannot be inlined is reported on the caller job as unsupported.
 */
export async function inlineReusableWorkflows(
  workflow: WorkflowDef,
  read: (path: string) => Promise<string | null>,
): Promise<WorkflowDef> {
  const jobs: JobDef[] = [];
  for (const job of workflow.jobs) {
    const call = job.callsWorkflow;
    if (call === undefined) {
      jobs.push(job);
      continue;
    }
    const reject = (reason: string): void => {
      jobs.push({ ...job, unsupported: [...job.unsupported, reason] });
    };
    if (job.strategy.matrix !== undefined) {
      reject(`a matrix on a reusable workflow call is not supported by the local executor: ${call.path}`);
      continue;
    }
    const text = await read(call.path);
    if (text === null) {
      reject(`reusable workflow not found: ./${call.path}`);
      continue;
    }
    let callee: WorkflowDef;
    try {
      callee = parseWorkflow(text, call.path);
    } catch (error) {
      if (!isAppError(error)) throw error;
      reject(`invalid reusable workflow ./${call.path}: ${error.message}`);
      continue;
    }
    const callerName = job.name ?? job.key;
    const keyOf = (k: string): string => `${job.key}/${k}`;
    const inputs = { ...callee.call.inputs, ...call.with };
    for (const inner of callee.jobs) {
      const root = inner.needs.length === 0;
      const combined: JobDef = {
        ...inner,
        key: keyOf(inner.key),
        needs: root ? [...job.needs] : inner.needs.map(keyOf),
        calledFrom: { callerKey: job.key, callerName, calleeKey: inner.key, workflow: callee, inputs, inputsNeeds: job.needs },
        unsupported: inner.callsWorkflow === undefined
          ? inner.unsupported
          : [...inner.unsupported, `nested reusable workflows are not supported by the local executor: ./${inner.callsWorkflow.path}`],
      };
      delete combined.callsWorkflow;
      const condition = root ? combineConditions(job.if, inner.if) : inner.if;
      if (condition === undefined) delete combined.if;
      else combined.if = condition;
      jobs.push(combined);
    }
    const aggregate: JobDef = {
      ...job,
      needs: callee.jobs.map((j) => keyOf(j.key)),
      steps: [],
      aggregate: {
        jobs: Object.fromEntries(callee.jobs.map((j) => [j.key, keyOf(j.key)])),
        outputs: callee.call.outputs,
        inputs,
        inputsNeeds: job.needs,
      },
    };
    delete aggregate.callsWorkflow;
    delete aggregate.if;
    jobs.push(aggregate);
  }
  return { ...workflow, jobs };
}

function unwrap(condition: string | boolean): string {
  if (typeof condition === 'boolean') return String(condition);
  const m = /^\s*\$\{\{([\s\S]*)\}\}\s*$/.exec(condition);
  return (m?.[1] ?? condition).trim();
}

function combineConditions(outer: string | boolean | undefined, inner: string | boolean | undefined): string | boolean | undefined {
  if (outer === undefined) return inner;
  if (inner === undefined) return outer;
  return `(${unwrap(outer)}) && (${unwrap(inner)})`;
}
