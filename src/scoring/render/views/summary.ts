import type { CiRepairReport } from '../../ci-repair/report.js';
import { NOT_REPAIRED_REASONS } from '../../ci-repair/types.js';
import { interval, percent, pValue } from '../format.js';
import type { TableModel } from '../table-model.js';

const confidenceLabel = (report: CiRepairReport): string => `${percent(report.confidence * 100, 0)}% CI`;

/** Headline table: one row per run, with the not-repaired breakdown per reason. */
export function summaryTable(report: CiRepairReport): TableModel {
  const notes: string[] = [];
  if (report.scope.excluded.length > 0) {
    const list = report.scope.excluded.map((entry) => `${entry.id} (${entry.health})`).join(', ');
    notes.push(`Excluded as unhealthy (${report.scope.excluded.length}): ${list}`);
  }
  for (const run of report.runs) {
    if (run.invalidReasons.length > 0) {
      notes.push(`${run.label}: invalid — ${run.invalidReasons.map((entry) => `${entry.reason} (${entry.count})`).join(', ')}`);
    }
    if (run.ignoredSubmissions > 0) notes.push(`${run.label}: ${run.ignoredSubmissions} submissions for instances out of scope`);
  }
  return {
    title: `CI-Repair-Bench: ${report.scope.instances} instances in scope`,
    columns: [
      { header: 'Run', align: 'left' },
      { header: 'Instances', align: 'right' },
      { header: 'Passed', align: 'right' },
      { header: 'Success %', align: 'right' },
      { header: confidenceLabel(report), align: 'right' },
      { header: 'Evaluated', align: 'right' },
      { header: 'Passed/evaluated %', align: 'right' },
      ...NOT_REPAIRED_REASONS.map((reason) => ({ header: reason, align: 'right' as const })),
    ],
    rows: report.runs.map((run) => [
      run.label,
      String(run.instances),
      String(run.passed),
      percent(run.successRate.percent),
      interval(run.successRate),
      String(run.evaluated),
      percent(run.passRateEvaluated.percent),
      ...NOT_REPAIRED_REASONS.map((reason) => String(run.notRepaired[reason])),
    ]),
    notes,
  };
}

/** Paired comparisons of each run with the first, with McNemar's test. */
export function comparisonTable(report: CiRepairReport): TableModel {
  const label = (id: string): string => report.runs.find((run) => run.runId === id)?.label ?? id;
  return {
    title: `Paired comparison (McNemar: exact binomial below ${report.mcnemarExactBelow} discordant pairs, else chi-square with continuity correction)`,
    columns: [
      { header: 'Run A', align: 'left' },
      { header: 'Run B', align: 'left' },
      { header: 'Both', align: 'right' },
      { header: 'Only A', align: 'right' },
      { header: 'Only B', align: 'right' },
      { header: 'Neither', align: 'right' },
      { header: 'Test', align: 'left' },
      { header: 'p', align: 'right' },
    ],
    rows: report.comparisons.map((comparison) => [
      label(comparison.runA),
      label(comparison.runB),
      String(comparison.bothPassed),
      String(comparison.onlyA),
      String(comparison.onlyB),
      String(comparison.neither),
      comparison.mcnemar.method,
      pValue(comparison.mcnemar.pValue),
    ]),
  };
}
