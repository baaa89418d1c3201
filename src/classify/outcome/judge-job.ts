import type { ErrorType } from '../../domain/error-types.js';
import type { ExecutorJobReport } from '../../domain/executor-report.js';
import type { JobOutcome, OutcomeEvidence, ReasonCode } from '../../domain/states.js';
import { SETUP_TITLE as SETUP } from '../failing-steps.js';
import type { LogLine, ParsedLog, ParsedStep } from '../types.js';
import { confirmed, reportedAt } from './executor-trust.js';
import { OUTCOME_RULES, type OutcomeRule } from './rules/index.js';

/** A job step as GitHub (or the local executor) reports it. */
export interface JudgeStep {
  number: number;
  name: string;
  status?: string | null;
  conclusion: string | null;
}

export interface JudgeJobInput {
  status?: string | null;
  conclusion: string | null;
  steps: readonly JudgeStep[];
  /** The job's log parsed with the classifier's rules and `keepTailLines` (see judgeJobLog), or null: no log. */
  log: ParsedLog | null;
  rules?: readonly OutcomeRule[];
  /**
   * What the backend's own executor observed (the local backend): undefined where the runner's messages can only be
   * read in the log (GitHub); null where the executor reports but nothing is on file for this job. When not
   * undefined, a `runner`-issued rule decides only where the report confirms it (ExecutorJobReport): a step that
   * prints such a line is judged by the other rules.
   */
  executor?: ExecutorJobReport | null;
}

/** What a completed job says: its outcome, why, and the step and log lines that prove it. */
export interface JobJudgement {
  outcome: JobOutcome;
  reason: ReasonCode | null;
  evidence: OutcomeEvidence | null;
}

/**
 * Failures of the step's own tools that explain its exit: a network error printed next to one of these (a test
 * asserting on "Connection refused", a linter run) does not make the job an infrastructure error. Install failures
 * (Dependency Issues, Package Installation Error), uncaught exceptions (Runtime Error) and Environment Error are not
 * explanations: a lost network produces exactly those.
 */
const EXPLAINING_TYPES: ReadonlySet<ErrorType> = new Set([
  'Test Failure',
  'Assertion Error',
  'Code Linting',
  'Code Formatting',
  'Type Checking',
  'Syntax Error',
  'Doc/Docstring',
  'Configuration Error',
]);

const MAX_EVIDENCE_LINES = 6;
const MAX_LINE_CHARS = 500;

const clip = (line: LogLine): LogLine => (line.text.length <= MAX_LINE_CHARS ? line : { line: line.line, text: `${line.text.slice(0, MAX_LINE_CHARS - 1)}…` });

function evidence(step: string | null, found: readonly LogLine[], rule?: string): OutcomeEvidence {
  const seen = new Set<number>();
  const lines: LogLine[] = [];
  for (const line of [...found].sort((a, b) => a.line - b.line)) {
    if (seen.has(line.line) || lines.length >= MAX_EVIDENCE_LINES) continue;
    seen.add(line.line);
    lines.push(clip(line));
  }
  return rule === undefined ? { step, lines } : { step, lines, rule };
}

/** Every line the parse kept of a block: its output tail (failing blocks) and its `##[error]` lines. */
function blockLines(block: ParsedStep): LogLine[] {
  const byLine = new Map<number, LogLine>();
  for (const line of block.tail ?? []) byLine.set(line.line, line);
  for (const line of block.errorLines) if (!byLine.has(line.line)) byLine.set(line.line, { line: line.line, text: `##[error]${line.text}` });
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

/** The runner's `##[error]` lines of the whole log (each once, in order). */
function errorLines(log: ParsedLog): LogLine[] {
  const byLine = new Map<number, LogLine>();
  for (const line of log.errorLines) byLine.set(line.line, { line: line.line, text: `##[error]${line.text}` });
  for (const block of log.steps) for (const line of blockLines(block)) if (line.text.startsWith('##[error]')) byLine.set(line.line, line);
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

const blockName = (block: ParsedStep): string => block.stepName ?? block.title;

/** The step whose failure ended the job: the first failed step of the step list, or the first failing block. */
function failingStep(input: JudgeJobInput): { name: string; number: number | undefined; block: ParsedStep | undefined } | undefined {
  const failed = [...input.steps].sort((a, b) => a.number - b.number).find((step) => step.conclusion === 'failure');
  const blocks = input.log?.steps ?? [];
  if (failed !== undefined) return { name: failed.name, number: failed.number, block: blocks.find((block) => block.stepNumber === failed.number) };
  const block = input.log?.failedSteps[0];
  return block === undefined ? undefined : { name: blockName(block), number: block.stepNumber, block };
}

/** The executor's own line for a reported message (the last one with its text: a step may have printed it earlier). */
function reportedEvidence(step: string | null, lines: readonly LogLine[], message: string): OutcomeEvidence {
  const own = lines.filter((line) => line.text.includes(message)).slice(-1);
  return evidence(step, own, 'executor-report');
}

/** Whether a test or tool failure of the step itself explains its exit. */
const explained = (block: ParsedStep): boolean => block.hits.some((hit) => !hit.fallback && EXPLAINING_TYPES.has(hit.type));

function decides(rule: OutcomeRule, block: ParsedStep): boolean {
  if (rule.script !== undefined && !rule.script.test(block.command)) return false;
  switch (rule.precedence) {
    case 'always':
      return true;
    case 'exit-137':
      return block.exitCode === 137;
    case 'exit-127':
      return block.exitCode === 127 || !explained(block);
    case 'unexplained':
      return !explained(block);
  }
}

function apply(
  rules: readonly OutcomeRule[],
  scope: OutcomeRule['scope'],
  lines: readonly LogLine[],
  step: string | null,
  trust: (rule: OutcomeRule) => boolean,
  block?: ParsedStep,
): JobJudgement | undefined {
  for (const rule of rules) {
    if (rule.scope !== scope || !trust(rule)) continue;
    const found = rule.match(lines);
    if (found === undefined || (block !== undefined && !decides(rule, block))) continue;
    const exit = block === undefined ? [] : lines.filter((line) => /^##\[error\]Process completed with exit code \d+\./.test(line.text)).slice(-1);
    return { outcome: rule.outcome, reason: rule.reason, evidence: evidence(step, [...found, ...exit], rule.id) };
  }
  return undefined;
}

/**
 * Decides a completed job's outcome from its cause, read in its steps and its log (README "Outcomes"):
 *
 * 1. the conclusion where it says everything: `success`/`neutral` → passed, `skipped` → skipped,
 *    `startup_failure` → infra_error, `stale`/`action_required` → infra_error (backend_error), `timed_out` → timed_out;
 * 2. the runner's own messages anywhere (`job` rules): a job over its time limit → timed_out (GitHub and the local
 *    executor conclude it `cancelled`), a lost or crashed runner → infra_error;
 * 3. a job cancelled for any other reason → cancelled;
 * 4. a step that never finished in a failed job → infra_error (runner_lost: the runner stopped reporting);
 * 5. a failed `Set up job` → infra_error (`setup` rules, else job_setup_failed): the job never reached its steps;
 * 6. the first failed step's output (`step` rules, in table order, each with its precedence): the step over its
 *    `timeout-minutes` (timed_out), a local step limit or sandbox failure, a full disk, an OOM kill, a feature the
 *    backend cannot run, missing runner tooling, an unreachable network (infra_error);
 * 7. otherwise the repository's own steps failed → failed (step_failed).
 *
 * With an executor report (`input.executor`, the local backend) the runner's own messages in 2, 5 and 6 count only
 * where the report confirms them, and what it reports decides even without its line; without one (GitHub) the log
 * is believed. Step 1 alone is "Set up job": a workflow step given that name is judged as a step.
 */
export function judgeJob(input: JudgeJobInput): JobJudgement | null {
  const rules = input.rules ?? OUTCOME_RULES;
  if (input.status !== undefined && input.status !== null && input.status !== 'completed') return null;
  switch (input.conclusion) {
    case null:
      return null;
    case 'success':
    case 'neutral':
      return { outcome: 'passed', reason: null, evidence: null };
    case 'skipped':
      return { outcome: 'skipped', reason: null, evidence: null };
    case 'startup_failure':
      return { outcome: 'infra_error', reason: 'startup_failure', evidence: null };
    case 'stale':
    case 'action_required':
      return { outcome: 'infra_error', reason: 'backend_error', evidence: { step: null, lines: [], rule: `job-${input.conclusion}` } };
    default:
      break;
  }
  const log = input.log;
  const executor = input.executor;
  const runner = log === null ? undefined : apply(rules, 'job', errorLines(log), null, (rule) => confirmed(rule, executor, undefined));
  if (runner?.evidence != null) {
    const at = blockAt(log, runner.evidence.lines[0]?.line);
    return { ...runner, evidence: { ...runner.evidence, step: at === undefined ? null : blockName(at) } };
  }
  // the executor stopped the job at its time limit, whatever its log still shows
  if (executor?.timedOut === true) return { outcome: 'timed_out', reason: 'timed_out', evidence: { step: null, lines: [], rule: 'executor-report' } };
  if (input.conclusion === 'timed_out') return { outcome: 'timed_out', reason: 'timed_out', evidence: lastError(log) };
  if (input.conclusion === 'cancelled') return { outcome: 'cancelled', reason: 'cancelled', evidence: lastError(log) };

  const unfinished = input.steps.find((step) => step.status === 'in_progress');
  if (unfinished !== undefined) return { outcome: 'infra_error', reason: 'runner_lost', evidence: { step: unfinished.name, lines: [], rule: 'step-never-finished' } };

  const failing = failingStep(input);
  // "Set up job" is the runner's step 1: a step of the workflow named "Set up job" is judged as any other step
  const setupFailed =
    (failing?.name === SETUP && (failing.number === 1 || failing.number === undefined)) ||
    (input.steps.length === 0 && failing?.block?.title === SETUP && failing.block.index === 0);
  const setupTrusted = executor === undefined || reportedAt(executor, 1) !== null;
  if (setupFailed && setupTrusted) {
    const lines = failing?.block === undefined ? [] : blockLines(failing.block);
    const decided = apply(rules, 'setup', lines, SETUP, (rule) => confirmed(rule, executor, 1));
    if (decided !== undefined) return decided;
    const reported = reportedAt(executor, 1);
    if (reported !== null) return { outcome: 'infra_error', reason: reported.reason, evidence: reportedEvidence(SETUP, lines, reported.message) };
    return { outcome: 'infra_error', reason: 'job_setup_failed', evidence: evidence(SETUP, lines.filter((line) => line.text.startsWith('##[error]')), 'setup-failed') };
  }
  if (failing === undefined) {
    // Failed without a failed step: nothing of the repository ran (no steps, no log) or the log says nothing.
    if (input.steps.length === 0 && (log === null || log.errorLines.length === 0)) {
      return { outcome: 'infra_error', reason: 'job_setup_failed', evidence: { step: null, lines: [], rule: 'no-step-ran' } };
    }
    return { outcome: 'failed', reason: 'step_failed', evidence: lastError(log) };
  }
  const block = failing.block;
  if (block !== undefined) {
    const lines = blockLines(block);
    const decided = apply(rules, 'step', lines, failing.name, (rule) => confirmed(rule, executor, failing.number), block);
    if (decided !== undefined) return decided;
  }
  // what the executor observed at this step decides even where no rule reads its line (a log cut short)
  const reported = reportedAt(executor, failing.number);
  if (reported !== null) return { outcome: 'infra_error', reason: reported.reason, evidence: reportedEvidence(failing.name, block === undefined ? [] : blockLines(block), reported.message) };
  if (failing.number !== undefined && executor?.timedOutSteps.includes(failing.number) === true) {
    return { outcome: 'timed_out', reason: 'timed_out', evidence: { step: failing.name, lines: [], rule: 'executor-report' } };
  }
  const errors = block === undefined ? [] : blockLines(block).filter((line) => line.text.startsWith('##[error]'));
  return { outcome: 'failed', reason: 'step_failed', evidence: evidence(failing.name, errors.slice(-MAX_EVIDENCE_LINES)) };
}

function lastError(log: ParsedLog | null): OutcomeEvidence | null {
  if (log === null) return null;
  const all = errorLines(log);
  const last = all[all.length - 1];
  if (last === undefined) return null;
  const at = blockAt(log, last.line);
  return evidence(at === undefined ? null : blockName(at), [last]);
}

const blockAt = (log: ParsedLog | null, line: number | undefined): ParsedStep | undefined =>
  line === undefined ? undefined : log?.steps.find((block) => block.startLine <= line && block.endLine >= line);
