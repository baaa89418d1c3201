import { compareRuns } from '../api.js';
import { badge, h, pct, table } from '../dom.js';
import { outcomeGroups } from './run.js';

/** Two runs side by side: rates with intervals, McNemar's test on the discordant pairs, the instances that differ. */
export async function comparePage(a: string, b: string): Promise<HTMLElement> {
  const report = await compareRuns(a, b);
  const [runA, runB] = report.runs;
  const comparison = report.comparisons[0];
  if (runA === undefined || runB === undefined || comparison === undefined) return h('p', {}, 'Nothing to compare.');
  const differing = report.byInstance.filter((row) => (row.runs[0]?.outcome === 'passed') !== (row.runs[1]?.outcome === 'passed'));
  const ci = (rate: typeof runA.successRateStrict) => (rate.ci === null ? '–' : `${pct(rate.ci.lower)}–${pct(rate.ci.upper)}`);
  return h(
    'section',
    { 'aria-labelledby': 'compare-title' },
    h('h1', { id: 'compare-title' }, `${runA.label} vs ${runB.label}`),
    table(
      'Success rates (95% Wilson intervals)',
      ['Run', 'Passed', 'Strict rate', 'Interval', 'Evaluated rate', 'Interval', 'Infrastructure', 'Invalid / not evaluated'],
      [runA, runB].map((run, index) => {
        const groups = outcomeGroups(report, index);
        return [
          h('a', { href: `#/runs/${run.runId}` }, run.label),
          `${run.passed}/${run.instances}`,
          pct(run.successRateStrict.percent),
          ci(run.successRateStrict),
          pct(run.successRateEvaluated.percent),
          ci(run.successRateEvaluated),
          String(groups[2]!.count),
          String(groups[3]!.count),
        ];
      }),
    ),
    h('h2', {}, "McNemar's test"),
    h(
      'dl',
      { class: 'rates' },
      h('dt', {}, 'Paired instances'),
      h('dd', {}, String(comparison.instances)),
      h('dt', {}, 'Both passed / neither'),
      h('dd', {}, `${comparison.bothPassed} / ${comparison.neither}`),
      h('dt', {}, `Only ${runA.label} passed`),
      h('dd', {}, String(comparison.onlyA)),
      h('dt', {}, `Only ${runB.label} passed`),
      h('dd', {}, String(comparison.onlyB)),
      h('dt', {}, 'p-value'),
      h('dd', { id: 'mcnemar-p' }, `${comparison.mcnemar.pValue.toPrecision(3)} (${comparison.mcnemar.method.replace(/_/g, ' ')})`),
    ),
    h('h2', {}, 'Instances that differ'),
    table(
      `Per-instance differences (${differing.length})`,
      ['Instance', 'Repository', runA.label, runB.label],
      differing.map((row) => [row.id, row.repo, badge(row.runs[0]?.outcome ?? '–'), badge(row.runs[1]?.outcome ?? '–')]),
    ),
  );
}
