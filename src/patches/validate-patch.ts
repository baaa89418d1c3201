import { invalidInput, type AppError } from '../errors.js';

/**
 * Validation at the door: a parseable unified diff in git's format, within the size limit, touching only
 * relative paths inside the repository (no absolute paths, no `..` segments, nothing under `.git/`).
 */
export interface PatchCheck {
  files: string[];
}

const HEADER = /^diff --git (\S.*) (\S.*)$/;

export function validatePatch(patch: string, maxBytes: number): PatchCheck {
  const size = Buffer.byteLength(patch, 'utf8');
  if (size > maxBytes) throw fail('patch_too_large', `the patch is ${size} bytes; the limit is ${maxBytes} bytes (PATCH_MAX_BYTES)`, 413);
  if (patch.trim() === '') throw fail('patch_empty', 'the patch is empty; submit a unified diff in git format (git diff), or use kind "baseline" for no patch');
  if (patch.includes('\0')) throw fail('patch_invalid', 'the patch contains NUL bytes; binary changes must use git\'s binary diff format (git diff --binary)');
  const files = new Set<string>();
  let sawHunkOrBinary = false;
  let inFile = false;
  for (const line of patch.split('\n')) {
    const header = HEADER.exec(line);
    if (header !== null) {
      inFile = true;
      for (const side of [header[1], header[2]]) checkPath(stripPrefix(unquote(side ?? '')), line);
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
  const headerFiles = [...patch.matchAll(/^diff --git (\S.*) (\S.*)$/gm)].map((match) => stripPrefix(unquote(match[2] ?? '')));
  for (const file of headerFiles) files.add(file);
  return { files: [...files].sort() };
}

function unquote(path: string): string {
  const trimmed = path.trim();
  if (!trimmed.startsWith('"')) return trimmed;
  try {
    return JSON.parse(trimmed) as string;
  } catch {
    return trimmed.slice(1, -1);
  }
}

function stripPrefix(path: string): string {
  return /^[ab]\//.test(path) ? path.slice(2) : path;
}

function checkPath(path: string, line: string): void {
  if (path === '/dev/null') return;
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) throw fail('patch_absolute_path', `the patch touches an absolute path: ${path} (in "${line.slice(0, 120)}")`);
  const segments = path.split(/[\\/]/);
  if (segments.includes('..')) throw fail('patch_path_traversal', `the patch touches a path with a ".." segment: ${path}`);
  if (segments[0] === '.git' || segments.includes('.git')) throw fail('patch_git_dir', `the patch touches a path under .git/: ${path}`);
}

function fail(code: string, message: string, status = 422): AppError {
  return invalidInput(code, message, undefined, status);
}
