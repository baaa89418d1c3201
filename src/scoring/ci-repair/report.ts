import type { ErrorType } from '../../domain/error-types.js';
import { invalidInput } from '../../errors.js';
import { MCNEMAR_EXACT_BELOW } from '../stats/mcnemar.js';
import { byErrorType, byRepository, type RepoRow, type TypeRow } from './breakdowns.js';
import { observedTypes, type ObservedTypes } from './observed-types.js';
import { compareRuns, type PairedComparison } from './paired.js';
import { resolveRun } from './run-outcomes.js';
import { summarizeRun, type CiRunSummary } from './run-summary.js';
import { selectScope, type CiScope } from './scope.js';
import { NOT_EVALUATED, REPAIR_FAILURES, type CiInstance, type CiRunInput, type InstanceOutcome } from './types.js';

/** Options of {@link buildCiRepairReport}. */
export interface CiRepairReportOptions {
  /** Score flaky, drifted and unreplayable instances too (default false: they are excluded and listed). */
  includeUnhealthy?: boolean;
  /** Two-sided confidence of the Wilson intervals (default 0.95). */
  confidence?: number;
  /** Discordant-pair count below which McNemar's test is exact (default 25). */
  mcnemarExactBelow?: number;
}

/** Per-instance line: the instance and, per run, what happened. */
export interface InstanceRow {
  id: string;
  repo: string;
  labels: readonly ErrorType[];
  runs: { outcome: InstanceOutcome; reason: string | null; observedLabels: readonly ErrorType[] }[];
}

/** What the report's rates and outcome groups mean (also in the JSON, so every format says which rate is which). */
export const RATE_DEFINITIONS = {
  successRateStrict: "passed / all instances in scope × 100 (the paper's Pass@1: anything not passed counts as not repaired)",
  successRateEvaluated: 'passed / evaluated × 100, where evaluated = passed + failed + patch_failed',
  repairFailures: [...REPAIR_FAILURES],
  notEvaluated: [...NOT_EVALUATED],
} as const;

/** Everything a CI-Repair-Bench report shows, for one or several runs side by side. */
export interface CiRepairReport {
  benchmark: 'ci-repair-bench';
  definitions: typeof RATE_DEFINITIONS;
  confidence: number;
  scope: { includeUnhealthy: boolean; instances: number; excluded: CiScope['excluded'] };
  runs: CiRunSummary[];
  /** Table 7: all 12 types; `labels` totals the occurrences (893 in the published data). */
  byType: TypeRow[];
  labels: number;
  /** Table 8. */
  byRepo: RepoRow[];
  byInstance: InstanceRow[];
  observed: ObservedTypes[];
  /** Every run after the first compared with the first. */
  comparisons: PairedComparison[];
  /** Discordant pairs below which the comparisons used the exact binomial test. */
  mcnemarExactBelow: number;
}

/** Computes the CI-Repair-Bench report of one or more runs over the same instances (pure). */
export function buildCiRepairReport(
  instances: readonly CiInstance[],
  runs: readonly CiRunInput[],
  options: CiRepairReportOptions = {},
): CiRepairReport {
  const confidence = options.confidence ?? 0.95;
  const mcnemarExactBelow = options.mcnemarExactBelow ?? MCNEMAR_EXACT_BELOW;
  const ids = new Set<string>();
  for (const instance of instances) {
    if (ids.has(instance.id)) throw invalidInput('duplicate_instance', 'instance ids must be unique', { id: instance.id });
    ids.add(instance.id);
  }
  const scope = selectScope(instances, options.includeUnhealthy ?? false);
  const resolved = runs.map((run) => resolveRun(scope.instances, run));
  const byType = byErrorType(scope.instances, resolved, confidence);
  const [first, ...rest] = resolved;
  return {
    benchmark: 'ci-repair-bench',
    definitions: RATE_DEFINITIONS,
    confidence,
    scope: { includeUnhealthy: scope.includeUnhealthy, instances: scope.instances.length, excluded: scope.excluded },
    runs: resolved.map((run) => summarizeRun(run, confidence)),
    byType,
    labels: byType.reduce((sum, row) => sum + row.occurrences, 0),
    byRepo: byRepository(scope.instances, resolved, confidence),
    byInstance: scope.instances.map((instance, index) => ({
      id: instance.id,
      repo: instance.repo,
      labels: instance.labels,
      runs: resolved.map((run) => {
        const result = run.results[index];
        return {
          outcome: result?.outcome ?? 'no_submission',
          reason: result?.submission?.reason ?? null,
          observedLabels: result?.submission?.observedLabels ?? [],
        };
      }),
    })),
    observed: resolved.map((run) => observedTypes(scope.instances, run)),
    comparisons: first === undefined ? [] : rest.map((run) => compareRuns(first, run, mcnemarExactBelow)),
    mcnemarExactBelow,
  };
}
