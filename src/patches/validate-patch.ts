import { invalidInput, type AppError } from '../errors.js';

/**
 * Validation at the door: a parseable unified diff in git's format, within the size limit, touching only
 * relative paths inside the repository (no absolute paths, no `..` segments, nothing under `.git/`).
 *
 * Paths are read the way `git apply` reads them: git's quoting (`"a/\056\056/x"`, octal-escaped bytes) is undone,
 * a CR before the LF is not part of a line, and every name of a `diff --git`, `---`/`+++`, `rename`/`copy` line is
 * checked both as written (a `--no-prefix` diff's `src/x.py`) and as git's `-p1` leaves it (first component cut,
 * repeated slashes squashed: `x//etc/passwd` is `/etc/passwd`). Hunk bodies are counted like git counts them, so
 * a removed line `-- /usr/share/x` (`--- /usr/share/x`) is content, not a file header.
 */
export interface PatchCheck {
  files: string[];
}

/** Longer `diff --git` or `---`/`+++` lines are refused (no path is this long; the work per line stays linear). */
const MAX_HEADER_LINE = 16 * 1024;
const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
const EXTENDED = /^(?:rename (?:from|to|old|new)|copy (?:from|to)) /;
const MODE_LINE = /^(?:(?:new|deleted) file mode \d+|old mode \d+|new mode \d+|similarity index .*)$/;

interface Hunk {
  old: number;
  new: number;
}

export function validatePatch(patch: string, maxBytes: number): PatchCheck {
  const size = Buffer.byteLength(patch, 'utf8');
  if (size > maxBytes) throw fail('patch_too_large', `the patch is ${size} bytes; the limit is ${maxBytes} bytes (PATCH_MAX_BYTES)`, 413);
  if (patch.trim() === '') throw fail('patch_empty', 'the patch is empty; submit a unified diff in git format (git diff), or use kind "baseline" for no patch');
  if (patch.includes('\0')) throw fail('patch_invalid', 'the patch contains NUL bytes; binary changes must use git\'s binary diff format (git diff --binary)');
  const files = new Set<string>();
  let sawHunkOrBinary = false;
  let sawGitHeader = false;
  let inFile = false;
  let hunk: Hunk | null = null;
  for (const raw of patch.split('\n')) {
    if (hunk !== null) {
      if (consumeHunkLine(hunk, raw)) {
        if (hunk.old === 0 && hunk.new === 0) hunk = null;
        continue;
      }
      // A hunk cut short: git refuses the whole patch; the line is still read (and checked) as a header.
      hunk = null;
    }
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.startsWith('diff --git ')) {
      checkLength(line);
      inFile = true;
      sawGitHeader = true;
      const names = diffGitNames(line.slice('diff --git '.length));
      for (const name of names.checked) checkName(name, line);
      if (names.file !== null) files.add(stripAB(names.file));
      continue;
    }
    if (line.startsWith('--- ') || line.startsWith('+++ ')) {
      checkLength(line);
      const name = unquote(line.slice(4).split('\t')[0] ?? '');
      if (name !== '/dev/null') {
        checkName(name, line);
        files.add(stripAB(name));
      }
      inFile = true;
      continue;
    }
    if (EXTENDED.test(line)) {
      checkLength(line);
      const name = unquote(line.slice(line.indexOf(' ', line.indexOf(' ') + 1) + 1));
      checkName(name, line);
      files.add(name);
      continue;
    }
    const range = HUNK.exec(line);
    if (range !== null) {
      if (!inFile) throw fail('patch_invalid', `a hunk appears before any file header ("${line.slice(0, 60)}")`);
      sawHunkOrBinary = true;
      const counted: Hunk = { old: count(range[1]), new: count(range[2]) };
      hunk = counted.old === 0 && counted.new === 0 ? null : counted;
      continue;
    }
    if (line === 'GIT binary patch' || line.startsWith('Binary files ')) {
      if (!inFile) throw fail('patch_invalid', `a binary patch appears before any file header ("${line.slice(0, 60)}")`);
      sawHunkOrBinary = true;
      continue;
    }
    if (MODE_LINE.test(line)) sawHunkOrBinary = true;
  }
  if (!sawHunkOrBinary || (files.size === 0 && !sawGitHeader)) {
    throw fail('patch_invalid', 'not a unified diff: no file headers ("diff --git a/… b/…" or "--- a/…"/"+++ b/…") with hunks ("@@ -l,n +l,n @@") were found');
  }
  return { files: [...files].sort() };
}

/** One line of a hunk's body, counted as git counts it; false when the line cannot belong to the hunk. */
function consumeHunkLine(hunk: Hunk, line: string): boolean {
  const first = line.charAt(0);
  if (first === ' ' || line === '') {
    hunk.old -= 1;
    hunk.new -= 1;
  } else if (first === '-') {
    hunk.old -= 1;
  } else if (first === '+') {
    hunk.new -= 1;
  } else if (!line.startsWith('\\ ')) {
    return false;
  }
  return true;
}

const count = (digits: string | undefined): number => (digits === undefined ? 1 : Number(digits));

/**
 * The names of a `diff --git` line. Git itself uses them only when the line names one path twice (`a/X b/X`) or
 * quotes them; otherwise every space-separated word is checked, which can only refuse more.
 */
function diffGitNames(rest: string): { checked: string[]; file: string | null } {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    if (end < 0) throw fail('patch_invalid', `malformed quoted path: ${rest.slice(0, 120)}`);
    const second = unquote(rest.slice(end + 1).trimStart());
    return { checked: [unquote(rest.slice(0, end + 1)), second], file: second };
  }
  const quotedSecond = rest.endsWith('"') ? rest.lastIndexOf(' "') : -1;
  if (quotedSecond > 0) {
    const second = unquote(rest.slice(quotedSecond + 1));
    return { checked: [rest.slice(0, quotedSecond), second], file: second };
  }
  const same = sameNameTwice(rest);
  if (same !== null) return { checked: [same.first, same.second], file: same.second };
  return { checked: rest.split(/[ \t]+/).filter((word) => word !== ''), file: null };
}

/**
 * Git's reading of an unquoted `A B` header: the split where both names are equal once their first component is
 * cut. The difference of the two lengths grows with the split position, so at most one position is compared.
 */
function sameNameTwice(rest: string): { first: string; second: string } | null {
  const firstSlash = rest.indexOf('/');
  if (firstSlash <= 0) return null;
  const nextSlash = new Int32Array(rest.length + 1).fill(-1);
  for (let i = rest.length - 1; i >= 0; i -= 1) nextSlash[i] = rest.charCodeAt(i) === 47 ? i : (nextSlash[i + 1] ?? -1);
  for (let split = firstSlash + 1; split < rest.length - 1; split += 1) {
    const char = rest.charCodeAt(split);
    if (char !== 32 && char !== 9) continue;
    const slash = nextSlash[split + 1] ?? -1;
    if (slash < 0) break;
    if (slash === split + 1) continue;
    const nameLength = split - firstSlash - 1;
    const secondLength = rest.length - slash - 1;
    if (nameLength > secondLength) break;
    if (nameLength === secondLength && rest.startsWith(rest.slice(slash + 1), firstSlash + 1)) {
      return { first: rest.slice(0, split), second: rest.slice(split + 1) };
    }
  }
  return null;
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  return -1;
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

/** The name listed in `files`: without git's `a/`/`b/` prefix. */
function stripAB(path: string): string {
  return /^[ab]\//.test(path) ? path.slice(2) : path;
}

/** What `git apply -p1` makes of a name: the first component cut, runs of slashes squashed to one. */
function gitStripped(path: string): string | null {
  const slash = path.indexOf('/');
  return slash < 0 ? null : path.slice(slash + 1).replace(/\/{2,}/g, '/');
}

function checkLength(line: string): void {
  if (line.length > MAX_HEADER_LINE) throw fail('patch_invalid', `a file header line is longer than ${MAX_HEADER_LINE} characters ("${line.slice(0, 60)}…")`);
}

/** The same rules for a name as written and as git's -p1 reads it. */
function checkName(name: string, line: string): void {
  checkPath(name, line);
  const stripped = gitStripped(name);
  if (stripped !== null) checkPath(stripped, line);
}

function checkPath(path: string, line: string): void {
  if (path === '/dev/null') return;
  if (path.includes('\0')) throw fail('patch_invalid', `the patch names a path with a NUL byte (in "${line.slice(0, 120)}")`);
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path)) throw fail('patch_absolute_path', `the patch touches an absolute path: ${path.slice(0, 200)} (in "${line.slice(0, 120)}")`);
  const segments = path.split(/[\\/]/);
  if (segments.includes('..')) throw fail('patch_path_traversal', `the patch touches a path with a ".." segment: ${path.slice(0, 200)}`);
  if (segments.some((segment) => segment.toLowerCase() === '.git')) throw fail('patch_git_dir', `the patch touches a path under .git/: ${path.slice(0, 200)}`);
}

function fail(code: string, message: string, status = 422): AppError {
  return invalidInput(code, message, undefined, status);
}
