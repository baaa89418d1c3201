import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { RunContext } from './run-context.js';

/**
 * The run's source view and the object store it borrows from (`objects/info/alternates`: its parent's base view):
 * steps read it as `origin` (a later `git fetch --unshallow`, or a full-history checkout that borrows its objects),
 * read-only. The repository the commit was pushed to (every submission's branch) is never shown.
 */
function sourceRepository(gitDir: string): string[] {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(gitDir)) return [];
  const dir = resolve(gitDir);
  const out = [dir];
  for (const objects of [join(dir, '.git', 'objects'), join(dir, 'objects')]) {
    let text = '';
    try {
      text = readFileSync(join(objects, 'info', 'alternates'), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').map((l) => l.trim())) {
      if (line !== '' && !line.startsWith('#')) out.push(isAbsolute(line) ? line : resolve(objects, line));
    }
  }
  return out;
}

/**
 * What a job's sandbox hides (the run's directories and the configured paths, besides the defaults) and shows
 * read-only where hidden: the Python toolchains setup-python picks from, the PATH directories of the base
 * environment, /etc/resolv.conf's target (egress), and the source repository (`origin`).
 */
export function sandboxPaths(ctx: RunContext): { hide: string[]; readOnly: string[]; gitSafeDirectories: string[] } {
  const pathDirs = [ctx.baseEnv.PATH, ctx.options.env?.PATH].flatMap((p) => (p ?? '').split(':')).filter((d) => d.startsWith('/'));
  const source = sourceRepository(ctx.source);
  const readOnly = [...ctx.pythonVersionsDirs, ...pathDirs, ...source];
  if (ctx.sandbox.namespaces?.network === 'egress') readOnly.push('/etc/resolv.conf');
  const gitDir = source[0];
  const gitSafeDirectories = gitDir === undefined ? [] : [gitDir, join(gitDir, '.git')];
  return { hide: ctx.hiddenPaths, readOnly, gitSafeDirectories };
}
