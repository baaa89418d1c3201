import { invalidInput } from '../../errors.js';
import type { ActionRef } from './types.js';

const NAME = /^[A-Za-z0-9_.-]+$/;

/** Parses a step's `uses:` (`owner/repo[/path]@ref`, `docker://image`, `./path`); throws `invalid_action_ref`. */
export function parseActionRef(uses: string): ActionRef {
  const text = uses.trim();
  if (text.startsWith('docker://')) return { kind: 'docker', uses: text, image: text.slice('docker://'.length) };
  if (text.startsWith('./') || text.startsWith('../')) return { kind: 'local', uses: text, path: text };
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) {
    throw invalidInput('invalid_action_ref', `Expected format {org}/{repo}[/path]@ref. Actual '${text}'`);
  }
  const [owner = '', repo = '', ...rest] = text.slice(0, at).split('/');
  const ref = text.slice(at + 1);
  const path = rest.join('/');
  const badPath = rest.some((part) => part === '' || part === '.' || part === '..');
  if (!NAME.test(owner) || !NAME.test(repo) || repo === '.' || repo === '..' || badPath || /[\s~^:?*[\\]/.test(ref) || ref.startsWith('-')) {
    throw invalidInput('invalid_action_ref', `Expected format {org}/{repo}[/path]@ref. Actual '${text}'`);
  }
  return { kind: 'remote', uses: text, owner, repo, path, ref };
}
