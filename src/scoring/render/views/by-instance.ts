import type { CiRepairReport } from '../../ci-repair/report.js';
import type { TableModel } from '../table-model.js';

/** One line per instance: its labels, then per run the outcome and the observed failure types. */
export function byInstanceTable(report: CiRepairReport): TableModel {
  return {
    title: 'Outcome per instance',
    columns: [
      { header: 'Instance', align: 'left' },
      { header: 'Repository', align: 'left' },
      { header: 'Labels', align: 'left' },
      ...report.runs.flatMap((run) => [
        { header: `${run.label} outcome`, align: 'left' as const },
        { header: `${run.label} observed`, align: 'left' as const },
      ]),
    ],
    rows: report.byInstance.map((row) => [
      row.id,
      row.repo,
      row.labels.join('; '),
      ...row.runs.flatMap((run) => [
        run.reason === null || run.outcome === 'passed' ? run.outcome : `${run.outcome} (${run.reason})`,
        run.observedLabels.join('; '),
      ]),
    ]),
  };
}
