import type { ParsedStep } from './types.js';

// Which steps of a parsed log failed, where the log's own markers leave it open.

/** The runner's first step: a log cut there failed before any of the job's own steps ran. */
export const SETUP_TITLE = 'Set up job';

/** The runner's own closing steps: never the one that failed. */
export const CLEANUP_TITLES: ReadonlySet<string> = new Set(['Post job cleanup', 'Complete job']);

/** A problem matcher's annotation names a file and line (`tsconfig.json(1,84): error TS5107: …`, `a.ts:3:1 …`). */
const ANNOTATION = /^\S+?(?:\(\d+(?:,\d+)?\)|:\d+(?::\d+)?)[: ]/;

/**
 * A `run:` step whose only `##[error]` lines are problem-matcher annotations (tsc, ESLint, compilers: a file and a
 * line) and no exit code did not fail (a file command the runner could not process, a cancel or a time-out print
 * other `##[error]` lines): the runner prints the exit code of every failing shell step, so when a later step follows in
 * the log, this one's output is whole and it went on (`|| true`, a build that reports but exits 0).
 */
export function clearAnnotatedSteps(steps: ParsedStep[], shellSteps: ReadonlySet<ParsedStep>): void {
  for (const [i, step] of steps.entries()) {
    if (!step.failed || step.exitCode !== undefined || !shellSteps.has(step)) continue;
    if (!step.errorLines.every((e) => ANNOTATION.test(e.text))) continue;
    if (steps.slice(i + 1).some((next) => !CLEANUP_TITLES.has(next.title))) step.failed = false;
  }
}

/**
 * The job failed but no step says so (a tail cut from a log, output pasted without markers): the step that failed
 * is the last one whose output a rule recognised, else the last one before the job's clean-up. Only steps the
 * rules read speculatively can be chosen: every step of a structure-less log, and the last step of a structured
 * log cut before any step said it failed (a quote that stops inside the failing step).
 */
export function inferFailingStep(steps: ParsedStep[]): void {
  const candidates = steps.filter((x) => x.speculative === true);
  const withHits = candidates.filter((x) => x.hits.some((h) => !h.fallback));
  const pick = withHits[withHits.length - 1] ?? candidates.filter((x) => !CLEANUP_TITLES.has(x.title)).pop() ?? candidates.pop();
  if (pick === undefined) return;
  pick.failed = true;
  pick.inferred = true;
  if (pick.index === 0 && pick.title === SETUP_TITLE) pick.title = 'Log';
}
