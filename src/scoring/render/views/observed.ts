import type { CiRepairReport } from '../../ci-repair/report.js';
import type { TableModel } from '../table-model.js';

/** Per run: observed failure types of failed submissions, and the instance label → observed transitions. */
export function observedTables(report: CiRepairReport): TableModel[] {
  return report.observed.map((observed) => {
    const label = report.runs.find((run) => run.runId === observed.runId)?.label ?? observed.runId;
    const counts = (entries: readonly { type: string; count: number }[]): string =>
      entries.map((entry) => `${entry.type} ${entry.count}`).join(', ');
    return {
      title: `${label}: observed failure types (${observed.failedSubmissions} failed, ${observed.unlabelled} without a type)`,
      columns: [
        { header: 'Instance label', align: 'left' },
        { header: 'Failed', align: 'right' },
        { header: 'Observed types', align: 'left' },
      ],
      rows: [
        ['(all)', String(observed.failedSubmissions), counts(observed.distribution)],
        ...observed.transitions.map((row) => [row.label, String(row.failed), counts(row.observed)]),
      ],
    };
  });
}
