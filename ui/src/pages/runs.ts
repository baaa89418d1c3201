import { listRuns } from '../api.js';
import { h, table, when } from '../dom.js';

const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];
const finished = (byState: Record<string, number>): number => TERMINAL.reduce((sum, state) => sum + (byState[state] ?? 0), 0);

/** Every run the session may see, newest first, and a form to compare two of them. */
export async function runsPage(): Promise<HTMLElement> {
  const { items } = await listRuns();
  const options = items.map((run) => h('option', { value: run.id }, `${run.label} (${run.id.slice(0, 8)})`));
  const a = h('select', { id: 'compare-a', name: 'a' }, options.map((option) => option.cloneNode(true) as HTMLElement)) as HTMLSelectElement;
  const b = h('select', { id: 'compare-b', name: 'b' }, options) as HTMLSelectElement;
  if (b.options.length > 1) b.selectedIndex = 1;
  const compare = h(
    'form',
    {
      class: 'inline',
      onsubmit: (event: Event) => {
        event.preventDefault();
        window.location.hash = `#/compare/${a.value}/${b.value}`;
      },
    },
    h('label', { for: 'compare-a' }, 'Run A'),
    a,
    h('label', { for: 'compare-b' }, 'Run B'),
    b,
    h('button', { type: 'submit' }, 'Compare'),
  );
  return h(
    'section',
    { 'aria-labelledby': 'runs-title' },
    h('h1', { id: 'runs-title' }, 'Runs'),
    items.length === 0
      ? h('p', {}, 'No runs yet. Submit a campaign with `ci-replay submit --run <label> <predictions>` or POST /v1/runs.')
      : table(
          'Runs, newest first',
          ['Run', 'Created', 'Submissions', 'Finished', 'Progress'],
          items.map((run) => {
            const done = finished(run.submissions.byState);
            const total = run.submissions.total;
            return [
              h('a', { href: `#/runs/${run.id}` }, run.label),
              when(run.createdAt),
              String(total),
              String(done),
              h('progress', { max: Math.max(total, 1), value: done, 'aria-label': `${run.label}: ${done} of ${total} finished` }),
            ];
          }),
          { class: 'runs' },
        ),
    items.length >= 2 ? h('section', { 'aria-labelledby': 'compare-title' }, h('h2', { id: 'compare-title' }, 'Compare two runs'), compare) : null,
  );
}
