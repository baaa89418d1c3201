import './style.css';
import { ApiError, logout, whoAmI, type Session } from './api.js';
import { h, mount } from './dom.js';
import { comparePage } from './pages/compare.js';
import { healthPage } from './pages/health.js';
import { loginPage } from './pages/login.js';
import { runPage } from './pages/run.js';
import { runsPage } from './pages/runs.js';
import { submissionPage } from './pages/submission.js';

const app = document.getElementById('app')!;
const who = document.getElementById('who')!;
let session: Session | null = null;
let refresh: number | undefined;

function showSession(current: Session | null): void {
  session = current;
  for (const link of document.querySelectorAll<HTMLElement>('[data-operator]')) link.hidden = current?.role !== 'operator';
  if (current === null) {
    mount(who);
    return;
  }
  mount(
    who,
    `${current.name} (${current.role}) `,
    h('button', { type: 'button', class: 'link', onclick: () => void logout().then(() => ((window.location.hash = '#/login'), showSession(null))) }, 'Sign out'),
  );
}

/** Renders the page of the current hash; `refreshing`: the same page again (a running run), keeping scroll and focus. */
async function render(refreshing = false): Promise<void> {
  window.clearTimeout(refresh);
  const scroll = window.scrollY;
  const [path = '', search = ''] = window.location.hash.replace(/^#\/?/, '').split('?');
  const query = new URLSearchParams(search);
  const parts = path.split('/').filter((part) => part !== '');
  if (parts[0] === 'login') {
    document.title = 'Sign in · ci-replay';
    mount(app, loginPage(query.get('next') ?? '', showSession));
    return;
  }
  if (session === null) {
    try {
      showSession(await whoAmI());
    } catch {
      window.location.hash = `#/login?next=${encodeURIComponent(path)}`;
      return;
    }
  }
  if (!refreshing) mount(app, h('p', { role: 'status' }, 'Loading…'));
  try {
    if (parts[0] === 'runs' && parts[1] !== undefined) {
      const { element, active } = await runPage(parts[1], query);
      document.title = 'Run · ci-replay';
      mount(app, element);
      if (refreshing) window.scrollTo(0, scroll);
      if (active) refresh = window.setTimeout(() => void render(true), 5000);
    } else if (parts[0] === 'submissions' && parts[1] !== undefined) {
      document.title = 'Submission · ci-replay';
      mount(app, await submissionPage(parts[1]));
    } else if (parts[0] === 'compare' && parts[1] !== undefined && parts[2] !== undefined) {
      document.title = 'Compare runs · ci-replay';
      mount(app, await comparePage(parts[1], parts[2]));
    } else if (parts[0] === 'health') {
      document.title = 'Benchmark health · ci-replay';
      mount(app, await healthPage());
    } else {
      document.title = 'Runs · ci-replay';
      mount(app, await runsPage());
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      showSession(null);
      window.location.hash = `#/login?next=${encodeURIComponent(path)}`;
      return;
    }
    const message = error instanceof ApiError ? `${error.status} ${error.code}: ${error.message}` : String(error);
    mount(app, h('section', { 'aria-labelledby': 'error-title' }, h('h1', { id: 'error-title' }, 'Not available'), h('p', { role: 'alert' }, message)));
  }
  if (!refreshing) app.focus({ preventScroll: true });
}

window.addEventListener('hashchange', () => void render());
void render();
