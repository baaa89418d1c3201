import { rate, type Rate } from '../stats/rate.js';
import type { RunOutcomes } from './run-outcomes.js';
import { NOT_EVALUATED, REPAIR_FAILURES, type NotEvaluatedReason, type NotRepairedReason } from './types.js';

/** Headline figures of one run. */
export interface CiRunSummary {
  runId: string;
  label: string;
  /** Instances in scope. */
  instances: number;
  passed: number;
  /** Instances the replay evaluated: passed + failed + patch_failed (a patch that does not apply is the patch's failure). */
  evaluated: number;
  /** Failed repairs: failed + patch_failed. */
  repairFailures: number;
  /** Not evaluated: infra_error, no_run, timed_out, cancelled, invalid, pending and no_submission (never failed repairs). */
  notEvaluated: number;
  /**
   * Strict success rate, the paper's Pass@1: passed / all instances in scope × 100. Every instance not passed, evaluated
   * or not, counts as not repaired.
   */
  successRateStrict: Rate;
  /** Success rate over the evaluated instances: passed / evaluated × 100 (not-evaluated instances left out). */
  successRateEvaluated: Rate;
  /** Not-repaired instances per outcome (every outcome present, zeros included). */
  notRepaired: Record<NotRepairedReason, number>;
  /** Reasons of the not-evaluated outcomes, most frequent first (missing reasons as "unspecified"). */
  notEvaluatedReasons: { outcome: NotEvaluatedReason; reason: string; count: number }[];
  ignoredSubmissions: number;
}

const isNotEvaluated = (outcome: string): outcome is NotEvaluatedReason => (NOT_EVALUATED as readonly string[]).includes(outcome);

/** Summarizes one resolved run. */
export function summarizeRun(run: RunOutcomes, confidence = 0.95): CiRunSummary {
  const notRepaired: Record<NotRepairedReason, number> = { failed: 0, patch_failed: 0, infra_error: 0, no_run: 0, timed_out: 0, cancelled: 0, invalid: 0, pending: 0, no_submission: 0 };
  const reasons = new Map<string, { outcome: NotEvaluatedReason; reason: string; count: number }>();
  let passed = 0;
  for (const { outcome, submission } of run.results) {
    if (outcome === 'passed') {
      passed += 1;
      continue;
    }
    notRepaired[outcome] += 1;
    if (!isNotEvaluated(outcome) || outcome === 'no_submission' || outcome === 'pending') continue;
    const reason = submission?.reason ?? 'unspecified';
    const key = `${outcome}\u0000${reason}`;
    const entry = reasons.get(key) ?? { outcome, reason, count: 0 };
    entry.count += 1;
    reasons.set(key, entry);
  }
  const repairFailures = REPAIR_FAILURES.reduce((sum, reason) => sum + notRepaired[reason], 0);
  const evaluated = passed + repairFailures;
  return {
    runId: run.id,
    label: run.label,
    instances: run.results.length,
    passed,
    evaluated,
    repairFailures,
    notEvaluated: run.results.length - evaluated,
    successRateStrict: rate(passed, run.results.length, confidence),
    successRateEvaluated: rate(passed, evaluated, confidence),
    notRepaired,
    notEvaluatedReasons: [...reasons.values()].sort((a, b) => b.count - a.count || a.outcome.localeCompare(b.outcome) || a.reason.localeCompare(b.reason)),
    ignoredSubmissions: run.ignoredSubmissions,
  };
}
