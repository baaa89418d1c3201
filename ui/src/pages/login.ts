import { ApiError, login, type Session } from '../api.js';
import { h } from '../dom.js';

/** Token login: the token goes in a POST body once; the API answers with an HttpOnly session cookie. */
export function loginPage(next: string, onLogin: (session: Session) => void): HTMLElement {
  const message = h('p', { id: 'login-error', class: 'error', role: 'alert' });
  const input = h('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'off', required: true, 'aria-describedby': 'token-help login-error' }) as HTMLInputElement;
  const form = h(
    'form',
    {
      class: 'login',
      onsubmit: (event: Event) => {
        event.preventDefault();
        message.textContent = '';
        login(input.value)
          .then((session) => {
            input.value = '';
            onLogin(session);
            if (next === 'queues') window.location.assign('/ui/queues');
            else window.location.hash = next === '' ? '#/runs' : `#/${next}`;
          })
          .catch((error: unknown) => {
            message.textContent = error instanceof ApiError ? error.message : 'login failed';
          });
      },
    },
    h('label', { for: 'token' }, 'API token'),
    input,
    h('p', { id: 'token-help', class: 'help' }, 'Paste a token from `ci-replay token create`. It is exchanged for a session cookie and not kept by the page.'),
    h('button', { type: 'submit' }, 'Sign in'),
    message,
  );
  return h('section', { 'aria-labelledby': 'login-title' }, h('h1', { id: 'login-title' }, 'Sign in'), form);
}
