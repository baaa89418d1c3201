/** The workflow standardizer: what CI-Repair-Bench describes, done in code. */
import { isMap, isSeq } from 'yaml';
import type { StandardizeInput, StandardizeLintedResult, StandardizeResult, WorkflowLinter, ReportEntry } from '../types.js';
import { keyOf, pairsOf } from '../nodes.js';
import { parseWorkflow, stringifyWorkflow } from '../parse.js';
import { standardizeMatrix } from '../matrix/index.js';
import { isAppError, invalidInput } from '../../errors.js';
import { keepOnlyWorkflowCall, rewriteTriggers, triggerNames } from './triggers.js';
import { filterJobs, type CalleeVerdict } from './jobs/index.js';
import { removeSecrets } from './secrets.js';
import { applySettings, pinDependencies } from './settings.js';
import { createWorkflowLinter, lintSafely } from '../lint.js';
import { replaceRunners } from './runners.js';
import { dropOrphanedSteps, stepIds } from './orphans.js';
import { callerInputs, normalizeWorkflowPath } from './callers.js';
import { cleanOutputs } from './outputs.js';
import { handlePackageIndexes } from './package-index.js';

export const DEFAULT_BRANCH_PATTERN = 'ci-replay/**';
export const DEFAULT_TIMEOUT_MINUTES = 60;

/** Events that run code changes; a workflow triggered by none of them is maintenance (bots, schedules, releases). */
const CODE_EVENTS = new Set(['push', 'pull_request', 'merge_group', 'workflow_call']);

function stepIndexer(jobs: ReturnType<typeof parseWorkflow>['jobs']): (step: unknown, fallback: number) => number {
  const positions = new WeakMap<object, number>();
  for (const pair of pairsOf(jobs)) {
    const steps = isMap(pair.value) ? pair.value.get('steps', true) : undefined;
    if (isSeq(steps)) steps.items.forEach((step, index) => { if (typeof step === 'object' && step !== null) positions.set(step, index); });
  }
  return (step, fallback) => (typeof step === 'object' && step !== null ? positions.get(step) ?? fallback : fallback);
}

function judgeCallee(input: StandardizeInput, visiting: ReadonlySet<string>): (path: string) => CalleeVerdict {
  return (path) => {
    const target = normalizeWorkflowPath(path);
    const file = input.workflows?.find((candidate) => normalizeWorkflowPath(candidate.path) === target);
    if (file === undefined || visiting.has(target)) return { kind: 'unknown' };
    try {
      standardize({ text: file.text, path: file.path, options: { ...input.options, role: 'callee' }, workflows: input.workflows }, new Set([...visiting, target]));
      return { kind: 'validates' };
    } catch (error) {
      if (!isAppError(error) || error.code !== 'nothing_to_validate') return { kind: 'unknown' };
      const details = error.details as { report?: ReportEntry[] } | undefined;
      const removed = (details?.report ?? []).filter((entry) => entry.action === 'removed-job').map((entry) => `${entry.target.replace(/^jobs\./, '')} (${entry.rule ?? 'removed'})`);
      return { kind: 'nothing-to-validate', reason: removed.length > 0 ? removed.join(', ') : 'no validation jobs' };
    }
  };
}

function standardize(input: StandardizeInput, visiting: ReadonlySet<string>): StandardizeResult {
  const { options } = input;
  const timeout = options.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES;
  if (!Number.isInteger(timeout) || timeout <= 0) throw invalidInput('invalid_option', `timeoutMinutes must be a positive integer, got ${timeout}`);
  if (options.pinDate !== undefined && Number.isNaN(options.pinDate.getTime())) throw invalidInput('invalid_option', 'pinDate is not a valid date');
  if (options.upstreamRepository !== undefined && !/^[\w.-]+\/[\w.-]+$/.test(options.upstreamRepository)) {
    throw invalidInput('invalid_option', `upstreamRepository must be owner/name, got ${options.upstreamRepository}`);
  }
  const { doc, root, jobs } = parseWorkflow(input.text, input.path);
  const stepIndex = stepIndexer(jobs);
  const originalStepIds = stepIds(jobs);
  const report: ReportEntry[] = [];
  const callee = options.role === 'callee';
  const triggers = triggerNames(root.get('on', true));
  const callers = callee || input.workflows === undefined || !triggers.includes('workflow_call')
    ? new Map()
    : callerInputs(input.path, input.workflows, options.matrixStrategy, options.pinDate);
  report.push(...(callee ? keepOnlyWorkflowCall(root, input.path) : rewriteTriggers(doc, root, options.branchPattern ?? DEFAULT_BRANCH_PATTERN, callers)));
  const filtered = filterJobs({
    jobs,
    maintenanceOnly: triggers.length > 0 && !triggers.some((name) => CODE_EVENTS.has(name)),
    stepIndex,
    upstreamRepository: options.upstreamRepository,
    judgeCallee: input.workflows === undefined ? undefined : judgeCallee(input, new Set([...visiting, normalizeWorkflowPath(input.path)])),
  });
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
  report.push(...replaceRunners(jobs));
  report.push(...removeSecrets(root, jobs, stepIndex));
  report.push(...dropOrphanedSteps(jobs, originalStepIds, stepIndex));
  report.push(...cleanOutputs(jobs));
  const indexes = handlePackageIndexes(root, jobs, { pinDate: options.pinDate, indexUrl: options.indexUrl });
  report.push(...indexes.report);
  report.push(...applySettings(doc, root, jobs, { timeoutMinutes: timeout, concurrency: !callee }));
  report.push(...pinDependencies(doc, root, { pinDate: options.pinDate, indexUrl: options.indexUrl }));
  return { text: stringifyWorkflow(doc), report, ...(indexes.services.length > 0 ? { packageIndexes: indexes.services } : {}) };
}

/**
 * Standardizes a workflow without linting it. Throws invalid_input (`invalid_workflow`, `invalid_option`,
 * `not_reusable`, `nothing_to_validate`) and nothing else.
 */
export function standardizeWorkflowText(input: StandardizeInput): StandardizeResult {
  return standardize(input, new Set());
}

/** Standardizes a workflow and validates the result with actionlint. */
export async function standardizeWorkflow(
  input: StandardizeInput,
  deps: { linter?: WorkflowLinter } = {},
): Promise<StandardizeLintedResult> {
  const result = standardizeWorkflowText(input);
  const linter = deps.linter ?? (await createWorkflowLinter());
  // A linter that throws never costs the standardized text: the failure is reported as a finding.
  return { ...result, lint: lintSafely(linter, result.text, input.path) };
}
