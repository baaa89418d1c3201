/** The workflow standardizer: what CI-Repair-Bench describes, done in code. */
import { isMap, isSeq } from 'yaml';
import type { StandardizeInput, StandardizeLintedResult, StandardizeResult, WorkflowLinter, ReportEntry } from '../types.js';
import { keyOf, pairsOf } from '../nodes.js';
import { parseWorkflow, stringifyWorkflow } from '../parse.js';
import { standardizeMatrix } from '../matrix/index.js';
import { invalidInput } from '../../errors.js';
import { keepOnlyWorkflowCall, rewriteTriggers } from './triggers.js';
import { filterJobs } from './jobs.js';
import { removeSecrets } from './secrets.js';
import { applySettings, pinDependencies } from './settings.js';
import { createWorkflowLinter } from '../lint.js';
import { replaceRetiredRunners } from './runners.js';
import { dropOrphanedSteps, stepIds } from './orphans.js';

export const DEFAULT_BRANCH_PATTERN = 'ci-replay/**';
export const DEFAULT_TIMEOUT_MINUTES = 60;

function stepIndexer(jobs: ReturnType<typeof parseWorkflow>['jobs']): (step: unknown, fallback: number) => number {
  const positions = new WeakMap<object, number>();
  for (const pair of pairsOf(jobs)) {
    const steps = isMap(pair.value) ? pair.value.get('steps', true) : undefined;
    if (isSeq(steps)) steps.items.forEach((step, index) => { if (typeof step === 'object' && step !== null) positions.set(step, index); });
  }
  return (step, fallback) => (typeof step === 'object' && step !== null ? positions.get(step) ?? fallback : fallback);
}

/** Standardizes a workflow without linting it. Throws invalid_input for YAML that is not a workflow. */
export function standardizeWorkflowText(input: StandardizeInput): StandardizeResult {
  const { options } = input;
  const timeout = options.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES;
  if (!Number.isInteger(timeout) || timeout <= 0) throw invalidInput('invalid_option', `timeoutMinutes must be a positive integer, got ${timeout}`);
  if (options.pinDate !== undefined && Number.isNaN(options.pinDate.getTime())) throw invalidInput('invalid_option', 'pinDate is not a valid date');
  const { doc, root, jobs } = parseWorkflow(input.text, input.path);
  const stepIndex = stepIndexer(jobs);
  const originalStepIds = stepIds(jobs);
  const report: ReportEntry[] = [];
  const callee = options.role === 'callee';
  report.push(...(callee ? keepOnlyWorkflowCall(root, input.path) : rewriteTriggers(doc, root, options.branchPattern ?? DEFAULT_BRANCH_PATTERN)));
  const filtered = filterJobs(jobs);
  report.push(...filtered.report);
  if (jobs.items.length === 0) throw invalidInput('nothing_to_validate', `${input.path} has no validation jobs left after standardization`, { report });
  for (const pair of pairsOf(jobs)) {
    if (isMap(pair.value)) {
      report.push(...standardizeMatrix(pair.value, keyOf(pair), {
        strategy: options.matrixStrategy,
        failedJobNames: options.failedJobNames ?? [],
        pinDate: options.pinDate,
      }));
    }
  }
  report.push(...replaceRetiredRunners(jobs));
  report.push(...removeSecrets(root, jobs, stepIndex));
  report.push(...dropOrphanedSteps(jobs, originalStepIds, stepIndex));
  report.push(...applySettings(doc, root, jobs, { timeoutMinutes: timeout, concurrency: !callee }));
  report.push(...pinDependencies(doc, root, { pinDate: options.pinDate, indexUrl: options.indexUrl }));
  return { text: stringifyWorkflow(doc), report };
}

/** Standardizes a workflow and validates the result with actionlint. */
export async function standardizeWorkflow(
  input: StandardizeInput,
  deps: { linter?: WorkflowLinter } = {},
): Promise<StandardizeLintedResult> {
  const result = standardizeWorkflowText(input);
  const linter = deps.linter ?? (await createWorkflowLinter());
  return { ...result, lint: linter(result.text, input.path) };
}
