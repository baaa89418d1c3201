import { rate, type Rate } from '../stats/rate.js';
import type { RunOutcomes } from './run-outcomes.js';
import type { NotRepairedReason } from './types.js';

/** Headline figures of one run. */
export interface CiRunSummary {
  runId: string;
  label: string;
  /** Instances in scope. */
  instances: number;
  passed: number;
  /** passed / instances in scope × 100 (Pass@1; anything but `passed` counts as not repaired). */
  successRate: Rate;
  /** Instances whose latest submission completed with a `passed` or `failed` verdict. */
  evaluated: number;
  /** passed / evaluated × 100. */
  passRateEvaluated: Rate;
  /** Not-repaired instances per reason (every reason present, zeros included). */
  notRepaired: Record<NotRepairedReason, number>;
  /** Reasons recorded on `invalid` verdicts, most frequent first (missing reasons as "unspecified"). */
  invalidReasons: { reason: string; count: number }[];
  ignoredSubmissions: number;
}

/** Summarizes one resolved run. */
export function summarizeRun(run: RunOutcomes, confidence = 0.95): CiRunSummary {
  const notRepaired: Record<NotRepairedReason, number> = {
    no_submission: 0,
    pending: 0,
    patch_failed: 0,
    publish_failed: 0,
    no_run: 0,
    timed_out: 0,
    cancelled: 0,
    infra_error: 0,
    invalid: 0,
    failed: 0,
  };
  const invalid = new Map<string, number>();
  let passed = 0;
  for (const { outcome, submission } of run.results) {
    if (outcome === 'passed') {
      passed += 1;
      continue;
    }
    notRepaired[outcome] += 1;
    if (outcome === 'invalid') {
      const reason = submission?.reason ?? 'unspecified';
      invalid.set(reason, (invalid.get(reason) ?? 0) + 1);
    }
  }
  const evaluated = passed + notRepaired.failed;
  return {
    runId: run.id,
    label: run.label,
    instances: run.results.length,
    passed,
    successRate: rate(passed, run.results.length, confidence),
    evaluated,
    passRateEvaluated: rate(passed, evaluated, confidence),
    notRepaired,
    invalidReasons: [...invalid]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    ignoredSubmissions: run.ignoredSubmissions,
  };
}
