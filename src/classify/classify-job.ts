import type { ErrorType } from '../domain/error-types.js';
import { LEARNED_TAIL_LINES, learnedLabels } from './learned/index.js';
import { parseLog } from './parse-log.js';
import { RULES, type Rule } from './rules/index.js';
import type { Classification, Evidence, Finding, Label, LogInput, ParsedLog, ParsedStep, StepInput } from './types.js';

export interface ClassifyJobInput {
  log: LogInput;
  steps?: StepInput[];
  /** The job's conclusion as GitHub reports it; a successful job carries no labels. */
  jobConclusion?: string | null;
  /** Defaults to the built-in table. */
  rules?: readonly Rule[];
  /** Keep the last output lines of failing steps in `parsed.steps[].tail` (used by segmentLogs). */
  keepTailLines?: number;
  /**
   * When the job failed (`jobConclusion: 'failure'`), let the learned fallback (src/classify/learned) label it when
   * no rule explains it, and add the types it is surer of beside the rules' labels. Defaults to true; false gives
   * the rules' labels alone.
   */
  learnedFallback?: boolean;
  /**
   * Checkout directories whose prefix is cut from finding paths (the local executor's work dirs); GitHub's
   * `/home/runner/work/<repo>/<repo>/` and a leading `./` are always cut, so paths are relative to the repository.
   */
  workspaceRoots?: string[];
}

const GITHUB_WORKSPACE = /^\/home\/runner\/work\/[^/]+\/[^/]+\//;

/** A finding's path relative to the repository, as check-run annotations want it. */
export function repoRelativePath(path: string, roots: readonly string[] = []): string {
  for (const root of roots) {
    const prefix = root.endsWith('/') ? root : `${root}/`;
    if (path.startsWith(prefix)) return path.slice(prefix.length);
  }
  const stripped = path.replace(GITHUB_WORKSPACE, '');
  return stripped.startsWith('./') ? stripped.slice(2) : stripped;
}

export interface JobClassification extends Classification {
  parsed: ParsedLog;
}

const MAX_EVIDENCE_PER_LABEL = 10;
const MAX_FINDINGS_PER_LABEL = 500;

/**
 * Says why a job failed: one label per error type and failing step, each with the log lines that prove it and the
 * file/line findings the tools printed. Only failing steps are read; output of steps that succeeded never counts.
 */
export async function classifyJob(input: ClassifyJobInput): Promise<JobClassification> {
  const learned = input.jobConclusion === 'failure' && input.learnedFallback !== false;
  const keepTailLines = learned ? Math.max(input.keepTailLines ?? 0, LEARNED_TAIL_LINES) : input.keepTailLines;
  const parsed = await parseLog(input.log, {
    rules: input.rules ?? RULES,
    ...(input.steps === undefined ? {} : { steps: input.steps }),
    ...(keepTailLines === undefined ? {} : { keepTailLines }),
    assumeFailure: input.jobConclusion === 'failure',
  });
  const failedSteps = parsed.failedSteps.map(stepLabel);
  const errorLines = parsed.errorLines;
  if (input.jobConclusion === 'success' || input.jobConclusion === 'skipped') {
    return { labels: [], failedSteps: [], errorLines, parsed };
  }
  const labels: Label[] = [];
  const cancelled = new Set<Label>();
  for (const step of parsed.failedSteps) {
    const own = labelsOfStep(step);
    if (step.hits.some((hit) => hit.ruleId === 'job-cancelled')) for (const label of own) cancelled.add(label);
    labels.push(...own);
  }
  dropCancelledSteps(labels, cancelled);
  for (const label of labels) {
    label.findings = label.findings.map((f) => ({ ...f, path: repoRelativePath(f.path, input.workspaceRoots) }));
  }
  if (labels.length === 0 && (input.jobConclusion === 'cancelled' || input.jobConclusion === 'timed_out')) {
    labels.push(runnerLabel(parsed, input.jobConclusion));
  }
  if (learned) labels.push(...learnedLabels(parsed.failedSteps, new Set(labels.map((label) => label.type))));
  if (keepTailLines !== input.keepTailLines) trimTails(parsed, input.keepTailLines ?? 0);
  return { labels, failedSteps, errorLines, parsed };
}

const stepLabel = (step: ParsedStep): string => step.stepName ?? step.title;

/** Gives the caller the tails it asked for (the fallback may have kept longer ones). */
function trimTails(parsed: ParsedLog, keep: number): void {
  for (const step of parsed.steps) {
    if (step.tail === undefined) continue;
    if (keep > 0) step.tail = step.tail.slice(-keep);
    else delete step.tail;
  }
}

function labelsOfStep(step: ParsedStep): Label[] {
  const specific = new Set(step.hits.filter((hit) => !hit.fallback && hit.yieldsTo.length === 0).map((hit) => hit.type));
  const primary = step.hits.filter((hit) => !hit.fallback && !hit.yieldsTo.some((type) => specific.has(type)));
  const hits = primary.length > 0 ? primary : step.hits.filter((hit) => hit.fallback).slice(0, 1);
  const byType = new Map<ErrorType, Label>();
  for (const hit of hits) {
    let label = byType.get(hit.type);
    if (label === undefined) {
      label = { type: hit.type, tool: hit.tool, stepName: stepLabel(step), evidence: [], findings: [] };
      byType.set(hit.type, label);
    }
    pushBounded(label.evidence, hit.evidence, MAX_EVIDENCE_PER_LABEL);
    pushBounded(label.findings, hit.findings, MAX_FINDINGS_PER_LABEL);
  }
  for (const label of byType.values()) label.evidence.sort((a, b) => a.startLine - b.startLine);
  return [...byType.values()];
}

/**
 * A step that was cancelled (`The operation was canceled.`) mostly stopped because another job or step failed
 * (fail-fast matrices, a cancelled run), and its output is cut short: when another step says why it failed, the
 * cancelled steps' labels go.
 */
function dropCancelledSteps(labels: Label[], cancelled: ReadonlySet<Label>): void {
  if (!labels.some((label) => !cancelled.has(label))) return;
  for (let i = labels.length - 1; i >= 0; i--) if (cancelled.has(labels[i] as Label)) labels.splice(i, 1);
}

function pushBounded<T>(into: T[], items: T[], max: number): void {
  for (const item of items) {
    if (into.length >= max) return;
    into.push(item);
  }
}

function runnerLabel(parsed: ParsedLog, conclusion: string): Label {
  const last = parsed.errorLines[parsed.errorLines.length - 1];
  const evidence: Evidence[] =
    last === undefined
      ? []
      : [{ startLine: last.line, endLine: last.line, text: last.text, tool: 'runner', rule: `job-${conclusion}` }];
  const findings: Finding[] = [];
  return { type: 'Environment Error', tool: 'runner', evidence, findings };
}

/** The distinct error types of a classification, in the order of ERROR_TYPES' first appearance. */
export const labelTypes = (classification: Pick<Classification, 'labels'>): ErrorType[] => [
  ...new Set(classification.labels.map((label) => label.type)),
];
