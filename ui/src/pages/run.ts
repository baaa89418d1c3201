import { getRun, runReport, runRows, type Report, type RunRow } from '../api.js';
import { rateChart, stackedBar } from '../charts.js';
import { badge, h, pct, table } from '../dom.js';

const STATE_ORDER = ['queued', 'preparing', 'published', 'running', 'completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];
const ACTIVE = ['queued', 'preparing', 'published', 'running'];

/** The report's outcome groups: passed, failed repairs, the platform's failures, and replays that said nothing. */
export function outcomeGroups(report: Report, index = 0) {
  const run = report.runs[index];
  const n = run?.notRepaired ?? {};
  const count = (...keys: string[]) => keys.reduce((sum, key) => sum + (n[key] ?? 0), 0);
  return [
    { label: 'Passed', count: run?.passed ?? 0, kind: 'passed' },
    { label: 'Failed (CI failed or patch does not apply)', count: count('failed', 'patch_failed'), kind: 'failed' },
    { label: 'Infrastructure', count: count('infra_error'), kind: 'infra' },
    { label: 'Invalid / not evaluated', count: count('no_run', 'timed_out', 'cancelled', 'invalid', 'no_submission'), kind: 'invalid' },
    { label: 'Pending', count: count('pending'), kind: 'pending' },
  ];
}

const rateText = (rate: { percent: number | null; ci: { lower: number; upper: number } | null; count: number; total: number }) =>
  `${pct(rate.percent)} (${rate.count}/${rate.total}; 95% CI ${rate.ci === null ? '–' : `${pct(rate.ci.lower)}–${pct(rate.ci.upper)}`})`;

function select(id: string, label: string, values: string[], current: string | undefined): HTMLElement[] {
  return [
    h('label', { for: id }, label),
    h('select', { id, name: id.replace('filter-', '') }, h('option', { value: '' }, 'any'), values.map((value) => h('option', { value, selected: value === current }, value))),
  ];
}

/** A run: progress while it runs, its rates with intervals, outcome breakdown, per-type chart, per-instance outcomes. */
export async function runPage(id: string, query: URLSearchParams): Promise<{ element: HTMLElement; active: boolean }> {
  const [run, report, rows] = await Promise.all([getRun(id), runReport(id), runRows(id)]);
  const summary = report.runs[0];
  const byState = run.submissions.byState;
  const total = run.submissions.total;
  const active = ACTIVE.reduce((sum, state) => sum + (byState[state] ?? 0), 0);
  const filter = { repo: query.get('repo') ?? undefined, type: query.get('type') ?? undefined, outcome: query.get('outcome') ?? undefined };
  const outcomeOf = (row: RunRow) => row.outcome ?? (ACTIVE.includes(row.state) ? 'pending' : row.state);
  const shown = rows.items.filter(
    (row) =>
      (filter.repo === undefined || row.repo === filter.repo) &&
      (filter.type === undefined || row.labels.includes(filter.type) || row.observedLabels.includes(filter.type)) &&
      (filter.outcome === undefined || outcomeOf(row) === filter.outcome),
  );
  const unique = (values: string[]) => [...new Set(values)].sort();
  const filters = h(
    'form',
    {
      class: 'inline filters',
      onchange: (event: Event) => {
        const form = event.currentTarget as HTMLFormElement;
        const params = new URLSearchParams();
        for (const name of ['repo', 'type', 'outcome']) {
          const value = (form.elements.namedItem(name) as HTMLSelectElement).value;
          if (value !== '') params.set(name, value);
        }
        window.location.hash = `#/runs/${id}${params.size > 0 ? `?${params}` : ''}`;
      },
      onsubmit: (event: Event) => event.preventDefault(),
    },
    select('filter-repo', 'Repository', unique(rows.items.map((row) => row.repo)), filter.repo),
    select('filter-type', 'Error type', unique(rows.items.flatMap((row) => [...row.labels, ...row.observedLabels])), filter.type),
    select('filter-outcome', 'Outcome', unique(rows.items.map(outcomeOf)), filter.outcome),
  );
  const element = h(
    'section',
    { 'aria-labelledby': 'run-title' },
    h('h1', { id: 'run-title' }, `Run ${run.label}`),
    h('p', { class: 'muted' }, `Run id ${run.id}`),
    h('h2', {}, 'Progress'),
    h('progress', { max: Math.max(total, 1), value: total - active, 'aria-label': `${total - active} of ${total} submissions finished` }),
    h('p', {}, `${total - active} of ${total} submissions finished${active > 0 ? `, ${active} in progress (refreshes every 5 s)` : ''}.`),
    h('ul', { class: 'states' }, STATE_ORDER.filter((state) => (byState[state] ?? 0) > 0).map((state) => h('li', {}, badge(state), ` ${byState[state]}`))),
    summary === undefined
      ? null
      : [
          h('h2', {}, 'Success rate'),
          h(
            'dl',
            { class: 'rates' },
            h('dt', {}, 'Strict (passed / all instances in scope)'),
            h('dd', { id: 'rate-strict' }, rateText(summary.successRateStrict)),
            h('dt', {}, 'Over evaluated (passed / passed + failed)'),
            h('dd', { id: 'rate-evaluated' }, rateText(summary.successRateEvaluated)),
          ),
          h('h2', {}, 'Outcomes'),
          stackedBar('Outcome breakdown', outcomeGroups(report)),
          summary.notEvaluatedReasons.length === 0
            ? null
            : table('Not evaluated, by reason', ['Outcome', 'Reason', 'Instances'], summary.notEvaluatedReasons.map((row) => [row.outcome, row.reason, String(row.count)])),
          h('h2', {}, 'By error type'),
          rateChart(
            'Repaired rate per error type',
            report.byType.filter((row) => row.occurrences > 0).map((row) => ({ label: `${row.type} (${row.occurrences})`, rate: row.runs[0]! })),
          ),
        ],
    h('h2', {}, 'Instances'),
    filters,
    table(
      `Per-instance outcomes (${shown.length} of ${rows.items.length})`,
      ['Instance', 'Repository', 'Labels', 'Outcome', 'Reason', 'Observed types', 'Submission'],
      shown.map((row) => [
        row.instanceId,
        row.repo,
        row.labels.join(', '),
        badge(outcomeOf(row)),
        row.reason ?? '',
        row.observedLabels.join(', '),
        h('a', { href: `#/submissions/${row.submissionId}`, 'aria-label': `${row.submissionId.slice(0, 8)}: submission of instance ${row.instanceId}` }, row.submissionId.slice(0, 8)),
      ]),
      { class: 'instances' },
    ),
  );
  return { element, active: active > 0 };
}
