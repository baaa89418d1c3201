import type { CiRepairReport } from '../../ci-repair/report.js';
import { NOT_REPAIRED_REASONS, REPAIR_FAILURES, type NotRepairedReason } from '../../ci-repair/types.js';
import { interval, percent, pValue } from '../format.js';
import type { TableModel } from '../table-model.js';

const confidenceLabel = (report: CiRepairReport): string => `${percent(report.confidence * 100, 0)}% CI`;

/** Column header of a not-repaired outcome: repair failures by name, the others marked "not evaluated". */
const outcomeHeader = (reason: NotRepairedReason): string =>
  (REPAIR_FAILURES as readonly string[]).includes(reason) ? `Repair failed: ${reason}` : `Not evaluated: ${reason}`;

/**
 * Headline table: one row per run with both success rates, each named in its header (CSV keeps only the headers):
 * strict over all instances in scope (the paper's definition) and over the evaluated instances; then the repair
 * failures and every not-evaluated outcome in its own column.
 */
export function summaryTable(report: CiRepairReport): TableModel {
  const notes: string[] = [
    `Success % strict = ${report.definitions.successRateStrict}.`,
    `Success % evaluated = ${report.definitions.successRateEvaluated}; ${report.definitions.notEvaluated.join(', ')} are not evaluated and never count as failed repairs.`,
  ];
  if (report.scope.excluded.length > 0) {
    const why = (entry: (typeof report.scope.excluded)[number]): string =>
      entry.lifecycle === undefined ? entry.health : `${entry.lifecycle}, ${entry.health}${entry.reason ? `: ${entry.reason}` : ''}`;
    const list = report.scope.excluded.map((entry) => `${entry.id} (${why(entry)})`).join(', ');
    const title = report.scope.excluded.every((entry) => entry.lifecycle === undefined) ? 'Excluded as unhealthy' : 'Excluded as not active';
    notes.push(`${title} (${report.scope.excluded.length}): ${list}`);
  }
  for (const run of report.runs) {
    if (run.notEvaluatedReasons.length > 0) {
      notes.push(`${run.label}: not evaluated — ${run.notEvaluatedReasons.map((entry) => `${entry.outcome}: ${entry.reason} (${entry.count})`).join(', ')}`);
    }
    if (run.ignoredSubmissions > 0) notes.push(`${run.label}: ${run.ignoredSubmissions} submissions for instances out of scope`);
  }
  const ci = confidenceLabel(report);
  return {
    title: `CI-Repair-Bench: ${report.scope.instances} instances in scope`,
    columns: [
      { header: 'Run', align: 'left' },
      { header: 'Instances', align: 'right' },
      { header: 'Passed', align: 'right' },
      { header: 'Success % strict (passed / all in scope)', align: 'right' },
      { header: `${ci} strict`, align: 'right' },
      { header: 'Evaluated', align: 'right' },
      { header: 'Success % evaluated (passed / evaluated)', align: 'right' },
      { header: `${ci} evaluated`, align: 'right' },
      { header: 'Not evaluated', align: 'right' },
      ...NOT_REPAIRED_REASONS.map((reason) => ({ header: outcomeHeader(reason), align: 'right' as const })),
    ],
    rows: report.runs.map((run) => [
      run.label,
      String(run.instances),
      String(run.passed),
      percent(run.successRateStrict.percent),
      interval(run.successRateStrict),
      String(run.evaluated),
      percent(run.successRateEvaluated.percent),
      interval(run.successRateEvaluated),
      String(run.notEvaluated),
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
