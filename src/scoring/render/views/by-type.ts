import type { CiRepairReport } from '../../ci-repair/report.js';
import { percent } from '../format.js';
import type { TableModel } from '../table-model.js';

/** Table 7 layout: type, occurrences, then repaired count and rate (%) per run, and a total over labels. */
export function byTypeTable(report: CiRepairReport): TableModel {
  const totals = report.runs.map((_, r) => report.byType.reduce((sum, row) => sum + (row.runs[r]?.count ?? 0), 0));
  return {
    title: 'Repairs per error type',
    columns: [
      { header: 'Error type', align: 'left' },
      { header: 'Occurrences', align: 'right' },
      ...report.runs.flatMap((run) => [
        { header: `${run.label} repaired`, align: 'right' as const },
        { header: `${run.label} %`, align: 'right' as const },
      ]),
    ],
    rows: [
      ...report.byType.map((row) => [
        row.type,
        String(row.occurrences),
        ...row.runs.flatMap((rate) => [String(rate.count), percent(rate.percent)]),
      ]),
      [
        'Total (labels)',
        String(report.labels),
        ...totals.flatMap((count) => [String(count), percent(report.labels === 0 ? null : (count / report.labels) * 100)]),
      ],
    ],
    notes: ['An instance counts once in every type it carries.'],
  };
}
