import { h, pct, table, when } from '../dom.js';
import { loadHealth } from '../health-client.js';
import { stackedBar } from '../charts.js';

const HEALTH = ['healthy', 'flaky', 'drifted', 'broken', 'unreplayable', 'unknown'];

/** Benchmark health: instance statuses, the latest re-validations, flakiness per repository. */
export async function healthPage(): Promise<HTMLElement> {
  const health = await loadHealth();
  return h(
    'section',
    { 'aria-labelledby': 'health-title' },
    h('h1', { id: 'health-title' }, 'Benchmark health'),
    h('h2', {}, 'Instance statuses'),
    stackedBar('Instances by health status', HEALTH.map((status) => ({ label: status, count: health.statuses[status] ?? 0, kind: status }))),
    h('h2', {}, 'Flakiness per repository'),
    table(
      'Instances per repository by health (flaky rate over re-validated instances)',
      ['Repository', 'Instances', 'Re-validated', ...HEALTH, 'Flaky rate'],
      [...health.repositories]
        .sort((a, b) => (b.flakyRate ?? -1) - (a.flakyRate ?? -1) || a.repo.localeCompare(b.repo))
        .map((row) => [row.repo, String(row.total), String(row.checked), ...HEALTH.map((status) => String(row.health[status] ?? 0)), row.flakyRate === null ? '–' : pct(row.flakyRate * 100)]),
    ),
    h('h2', {}, 'Recent changes'),
    health.recent.length === 0
      ? h('p', {}, 'No re-validations yet (`ci-replay revalidate` or POST /v1/instances/{id}/revalidate).')
      : table(
          'Latest re-validations, newest first',
          ['When', 'Instance', 'Repository', 'Status', 'Result', 'Baseline failed / passed', 'Reference passed / failed', 'Infra', 'Backend'],
          health.recent.map((change) => [
            when(change.completedAt ?? change.startedAt),
            change.instanceId,
            change.repo,
            change.status,
            change.result ?? '–',
            change.counts === null ? '–' : `${change.counts.baselineFailed ?? 0} / ${change.counts.baselinePassed ?? 0}`,
            change.counts === null ? '–' : `${change.counts.referencePassed ?? 0} / ${change.counts.referenceFailed ?? 0}`,
            change.counts === null ? '–' : String(change.counts.infra ?? 0),
            change.backend ?? '–',
          ]),
        ),
  );
}
