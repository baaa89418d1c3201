import type { CiRepairReport } from '../../ci-repair/report.js';
import { percent } from '../format.js';
import type { TableModel } from '../table-model.js';

/** Table 8 layout: repository, instances, then repaired count and rate (%) per run. */
export function byRepoTable(report: CiRepairReport): TableModel {
  return {
    title: 'Repairs per repository',
    columns: [
      { header: 'Repository', align: 'left' },
      { header: 'Instances', align: 'right' },
      ...report.runs.flatMap((run) => [
        { header: `${run.label} repaired`, align: 'right' as const },
        { header: `${run.label} %`, align: 'right' as const },
      ]),
    ],
    rows: report.byRepo.map((row) => [
      row.repo,
      String(row.instances),
      ...row.runs.flatMap((rate) => [String(rate.count), percent(rate.percent)]),
    ]),
  };
}
