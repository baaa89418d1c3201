import { invalidInput, type AppError } from '../errors.js';

/**
 * Validation at the door: a parseable unified diff in git's format, within the size limit, touching only
 * relative paths inside the repository (no absolute paths, no `..` segments, nothing under `.git/`).
 */
export interface PatchCheck {
  files: string[];
}

const HEADER = /^diff --git (\S.*) (\S.*)$/;

/** The two paths of a `diff --git` line; a quoted side ends at its closing unescaped quote (it may hold spaces). */
function headerPaths(line: string): [string, string] | null {
  if (!line.startsWith('diff --git ')) return null;
  const rest = line.slice('diff --git '.length);
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    if (end < 0) return null;
    return [rest.slice(0, end + 1), rest.slice(end + 2)];
  }
  if (rest.endsWith('"')) {
    const start = rest.lastIndexOf(' "');
    if (start > 0) return [rest.slice(0, start), rest.slice(start + 1)];
  }
  const match = HEADER.exec(line);
  return match === null ? null : [match[1] ?? '', match[2] ?? ''];
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  return -1;
}

export function validatePatch(patch: string, maxBytes: number): PatchCheck {
  const size = Buffer.byteLength(patch, 'utf8');
  if (size > maxBytes) throw fail('patch_too_large', `the patch is ${size} bytes; the limit is ${maxBytes} bytes (PATCH_MAX_BYTES)`, 413);
  if (patch.trim() === '') throw fail('patch_empty', 'the patch is empty; submit a unified diff in git format (git diff), or use kind "baseline" for no patch');
  if (patch.includes('\0')) throw fail('patch_invalid', 'the patch contains NUL bytes; binary changes must use git\'s binary diff format (git diff --binary)');
  const files = new Set<string>();
  let sawHunkOrBinary = false;
  let inFile = false;
  for (const line of patch.split('\n')) {
    const header = headerPaths(line);
    if (header !== null) {
      inFile = true;
      for (const side of header) checkPath(stripPrefix(unquote(side)), line);
      continue;
    }
    if (line.startsWith('--- ') || line.startsWith('+++ ')) {
      const target = unquote(line.slice(4).split('\t')[0] ?? '');
      if (target !== '/dev/null') {
        const path = stripPrefix(target);
        checkPath(path, line);
        files.add(path);
      }
      inFile = true;
      continue;
    }
    const rename = /^(rename|copy) (from|to) (.+)$/.exec(line);
    if (rename !== null) {
      const path = unquote(rename[3] ?? '');
      checkPath(path, line);
      files.add(path);
      continue;
    }
    if (/^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/.test(line) || line === 'GIT binary patch' || line.startsWith('Binary files ')) {
      if (!inFile) throw fail('patch_invalid', `a hunk appears before any file header ("${line.slice(0, 60)}")`);
      sawHunkOrBinary = true;
      continue;
    }
    if (/^(new|deleted) file mode \d+$|^old mode \d+$|^new mode \d+$|^similarity index/.test(line)) sawHunkOrBinary = true;
  }
  if (!sawHunkOrBinary || files.size === 0 && !/^diff --git /m.test(patch)) {
    throw fail('patch_invalid', 'not a unified diff: no file headers ("diff --git a/… b/…" or "--- a/…"/"+++ b/…") with hunks ("@@ -l,n +l,n @@") were found');
  }
  const headerFiles = patch.split('\n').flatMap((line) => {
    const sides = headerPaths(line);
    return sides === null ? [] : [stripPrefix(unquote(sides[1]))];
  });
  for (const file of headerFiles) files.add(file);
  return { files: [...files].sort() };
}

/**
 * Undoes git's C-style path quoting (`core.quotePath`): `"a/\\056\\056/x"` is `a/../x`. Octal escapes are bytes
 * of a UTF-8 sequence. A malformed quoted path is refused rather than guessed at.
 */
export function unquote(path: string): string {
  const trimmed = path.trim();
  if (!trimmed.startsWith('"')) return trimmed;
  if (trimmed.length < 2 || !trimmed.endsWith('"')) throw fail('patch_invalid', `malformed quoted path: ${trimmed.slice(0, 120)}`);
  const bytes: number[] = [];
  const body = trimmed.slice(1, -1);
  const simple: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i += 1) {
    const char = body[i] ?? '';
    if (char !== '\\') {
      bytes.push(...Buffer.from(char, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    const octal = /^[0-3][0-7]{2}/.exec(body.slice(i + 1, i + 4));
    if (octal !== null) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += 3;
      continue;
    }
    const code = simple[next];
    if (code === undefined) throw fail('patch_invalid', `malformed quoted path (unknown escape \\${next}): ${trimmed.slice(0, 120)}`);
    bytes.push(code);
    i += 1;
  }
  return Buffer.from(bytes).toString('utf8');
}

function stripPrefix(path: string): string {
  return /^[ab]\//.test(path) ? path.slice(2) : path;
}

function checkPath(path: string, line: string): void {
  if (path === '/dev/null') return;
  if (path.includes('\0')) throw fail('patch_invalid', `the patch names a path with a NUL byte (in "${line.slice(0, 120)}")`);
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) throw fail('patch_absolute_path', `the patch touches an absolute path: ${path} (in "${line.slice(0, 120)}")`);
  const segments = path.split(/[\\/]/);
  if (segments.includes('..')) throw fail('patch_path_traversal', `the patch touches a path with a ".." segment: ${path}`);
  if (segments[0] === '.git' || segments.includes('.git')) throw fail('patch_git_dir', `the patch touches a path under .git/: ${path}`);
}

function fail(code: string, message: string, status = 422): AppError {
  return invalidInput(code, message, undefined, status);
}
