import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/errors.js';
import { validatePatch } from '../../../src/patches/validate-patch.js';
import { fuzzSeed, mutateMany, prng, type Random } from '../../support/fuzz.js';

const SEED = fuzzSeed(20261214);
const CASES = 6000;
const GIT_ORACLE_SAMPLE = 300;
const LIMIT = 5 * 1024 * 1024;
const CODES = new Set(['patch_too_large', 'patch_empty', 'patch_invalid', 'patch_absolute_path', 'patch_path_traversal', 'patch_git_dir']);
const REFUSED_PATH = new Set(['patch_absolute_path', 'patch_path_traversal', 'patch_git_dir', 'patch_invalid']);

/** What the validator must refuse in a path, read as written or as git's -p1 leaves it. */
function badPath(path: string): boolean {
  const segments = path.split(/[\\/]/);
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || segments.includes('..') || segments.some((segment) => segment.toLowerCase() === '.git');
}

/** Names placed in a header slot; each is bad as written or after git's -p1 (first component cut, slashes squashed). */
const BAD_NAMES = ['a/../x.py', 'b/src/../../etc/passwd', '../x.py', 'a/.git/config', '.git/hooks/pre-commit', 'a/src/.git/HEAD', '/etc/passwd', 'a//etc/passwd', 'x//etc/passwd', 'a/.GIT/config', 'a/C:/Windows/x', 'src/..', 'a/..'];

/** git's C quoting with some bytes written as octal escapes (the way core.quotePath writes non-ASCII). */
function quote(random: Random, name: string): string {
  let body = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const char = String.fromCharCode(byte);
    if (byte >= 0x80 || byte < 0x20 || random.chance(0.3)) body += `\\${byte.toString(8).padStart(3, '0')}`;
    else if (char === '"' || char === '\\') body += `\\${char}`;
    else body += char;
  }
  return `"${body}"`;
}

/** Indexes of the lines naming a path, hunk bodies skipped by their counts (a removed `-- x` line is `--- x`). */
function headerSlots(lines: string[]): number[] {
  const slots: number[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk !== null) {
      let old = Number(hunk[1] ?? 1);
      let added = Number(hunk[2] ?? 1);
      while ((old > 0 || added > 0) && index + 1 < lines.length) {
        index += 1;
        const body = lines[index] ?? '';
        if (!body.startsWith('+')) old -= body.startsWith('\\') ? 0 : 1;
        if (!body.startsWith('-')) added -= body.startsWith('\\') ? 0 : 1;
      }
      continue;
    }
    if (/^(diff --git |--- |\+\+\+ |rename (from|to|old|new) |copy (from|to) )/.test(line)) slots.push(index);
  }
  return slots;
}

/** A real diff with one or every path slot replaced by a bad name (quoted or not), possibly with CRLF line ends. */
function injectBadName(random: Random, patch: string): string {
  const bad = random.pick(BAD_NAMES);
  const encoded = random.chance(0.5) ? quote(random, bad) : bad;
  const lines = patch.split('\n');
  const slots = headerSlots(lines);
  const chosen = random.chance(0.5) ? slots : [random.pick(slots)];
  for (const index of chosen) {
    const line = lines[index] ?? '';
    if (line.startsWith('diff --git ')) lines[index] = random.chance(0.5) ? `diff --git ${encoded} ${encoded}` : `diff --git ${encoded} b/ok.py`;
    else if (line.startsWith('--- ') || line.startsWith('+++ ')) lines[index] = `${line.slice(0, 4)}${encoded}${random.chance(0.2) ? '\t2026-01-01 00:00:00' : ''}`;
    else lines[index] = `${line.slice(0, line.indexOf(' ', line.indexOf(' ') + 1) + 1)}${encoded}`;
  }
  const joined = lines.join('\n');
  return random.chance(0.3) ? joined.replace(/\n/g, '\r\n') : joined;
}

/** Lines a mutation may insert: headers with odd names, hunk headers with odd counts, binary markers. */
function headerLines(random: Random): string[] {
  const names = [...BAD_NAMES, 'src/ok.py', 'dir with space/x.py', '"a/caf\\303\\251.py"', '"a/\\056\\056/x"', '"unterminated', 'a/x\\', '', ' '];
  return Array.from({ length: 40 }, () => {
    const name = random.pick(names);
    switch (random.int(7)) {
      case 0: return `diff --git ${name} ${random.pick(names)}`;
      case 1: return `--- ${name}`;
      case 2: return `+++ ${name}`;
      case 3: return `rename ${random.pick(['from', 'to', 'old', 'new'])} ${name}`;
      case 4: return `@@ -${random.int(5)},${random.int(5)} +${random.int(5)}${random.chance(0.5) ? '' : `,${random.int(99_999_999)}`} @@`;
      case 5: return random.pick(['GIT binary patch', 'literal 0', 'new file mode 100644', 'deleted file mode 100755', 'similarity index 90%', '\\ No newline at end of file']);
      default: return `${random.pick(['-', '+', ' '])}${random.pick(['--- ', '++ ', '- '])}${name}`;
    }
  });
}

/** Real diffs: written by git itself from a scratch repository (quoted and octal paths, renames, binary, --no-prefix). */
function realDiffs(dir: string): string[] {
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir } });
  const write = (path: string, content: string | Buffer): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  git('init', '-q', '.');
  git('config', 'user.email', 'fuzz@example.com');
  git('config', 'user.name', 'fuzz');
  const files: Record<string, string> = {
    'src/app.py': 'import os\n\n\ndef main():\n    return os.getcwd()\n',
    'dir with space/file.py': 'x = 1\ny = 2\n',
    'café/ü.py': 'print("ü")\n',
    'quote"name.py': 'a = 1\n',
    'tab\tname.txt': 'tab\n',
    'back\\slash.md': '# title\n',
    'db/q.sql': '-- /usr/share/doc comment\nSELECT 1;\n-- ../relative comment\n',
    'old name.py': 'def old():\n    pass\n'.repeat(5),
    'run.sh': '#!/bin/sh\necho hi\n',
    'gone.txt': 'bye\n',
  };
  for (const [path, content] of Object.entries(files)) write(path, content);
  write('img.bin', Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]));
  git('add', '-A');
  git('commit', '-qm', 'base');
  write('src/app.py', 'import os\nimport sys\n\n\ndef main():\n    return sys.argv\n');
  write('dir with space/file.py', 'x = 1\ny = 3\n');
  write('café/ü.py', 'print("ü!")\n');
  write('quote"name.py', 'a = 2\n');
  write('tab\tname.txt', 'tabs\n');
  write('back\\slash.md', '# Title\n');
  write('db/q.sql', 'SELECT 1;\n');
  write('img.bin', Buffer.from([0, 1, 2, 3, 255, 254, 0, 8, 9]));
  write('new file.txt', 'new\n');
  rmSync(join(dir, 'gone.txt'));
  git('mv', 'old name.py', 'new name.py');
  git('update-index', '--chmod=+x', 'run.sh');
  git('add', '-A');
  const diffs = [
    git('diff', '--cached'),
    git('diff', '--cached', '--binary', '-M'),
    git('diff', '--cached', '--no-prefix', '-M'),
    git('-c', 'core.quotePath=false', 'diff', '--cached', '-M', '-C', '--find-copies-harder'),
    git('diff', '--cached', '-U0'),
    git('diff', '--cached', '--src-prefix=x/', '--dst-prefix=y/'),
  ];
  for (const file of Object.keys(files)) diffs.push(git('diff', '--cached', '-M', '--', file));
  return diffs.filter((diff) => diff.trim() !== '');
}

/** Paths git itself reads from a patch (`git apply --numstat -z`, outside any repository), or null when git refuses it. */
function gitPaths(dir: string, patch: string): string[] | null {
  const file = join(dir, 'candidate.patch');
  writeFileSync(file, patch);
  const result = spawnSync('git', ['apply', '--numstat', '-z', file], { cwd: dir, encoding: 'utf8' });
  if (result.status !== 0) return null;
  return result.stdout.split('\0').flatMap((field) => {
    const parts = field.split('\t');
    const name = parts.length >= 3 ? parts.slice(2).join('\t') : field;
    return name === '' ? [] : [name];
  });
}

describe(`patch validator fuzz: ${CASES} random and mutated real git diffs (seed ${SEED})`, () => {
  let repo: string;
  let scratch: string;
  let corpus: string[];
  beforeAll(() => {
    console.log(`validate-patch fuzz seed ${SEED} (FUZZ_SEED=${SEED} reproduces)`);
    repo = mkdtempSync(join(tmpdir(), 'patch-fuzz-repo-'));
    scratch = mkdtempSync(join(tmpdir(), 'patch-fuzz-apply-'));
    const examples = join(import.meta.dirname, '../../../examples/python-demo/patches');
    corpus = [...realDiffs(repo), ...readdirSync(examples).map((name) => readFileSync(join(examples, name), 'utf8'))];
  });
  afterAll(() => {
    rmSync(repo, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  const attempt = (patch: string): { ok: true; files: string[] } | { ok: false; code: string } => {
    try {
      return { ok: true, files: validatePatch(patch, LIMIT).files };
    } catch (error) {
      if (!isAppError(error) || error.kind !== 'invalid_input' || !CODES.has(error.code)) throw new Error(`untyped or unexpected error for ${JSON.stringify(patch.slice(0, 300))}: ${String(error)}`);
      return { ok: false, code: error.code };
    }
  };

  it('accepts every real diff git wrote (quoted, octal, --no-prefix, renames, copies, binary, mode changes, CRLF)', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(15);
    expect(corpus.some((diff) => diff.includes('"a/caf\\303\\251/\\303\\274.py"'))).toBe(true);
    expect(corpus.some((diff) => diff.includes('diff --git src/app.py src/app.py'))).toBe(true);
    for (const diff of corpus) {
      expect(attempt(diff), diff.slice(0, 200)).toMatchObject({ ok: true });
      expect(attempt(diff.replace(/\n/g, '\r\n')), `CRLF ${diff.slice(0, 200)}`).toMatchObject({ ok: true });
    }
    // A removed SQL comment `-- /usr/share/doc comment` is the hunk line `--- /usr/share/doc comment`: content, not a header.
    const sql = corpus.find((diff) => diff.startsWith('diff --git a/db/q.sql'));
    expect(sql).toContain('\n--- /usr/share/doc comment\n');
    expect(attempt(sql ?? '')).toEqual({ ok: true, files: ['db/q.sql'] });
  });

  it('refuses a bad name in any header slot, quoted or octal-escaped, with or without prefixes, LF or CRLF', () => {
    const random = prng(SEED);
    for (let i = 0; i < CASES / 2; i += 1) {
      const patch = injectBadName(random, random.pick(corpus));
      const result = attempt(patch);
      expect(result.ok, `accepted a bad name: ${JSON.stringify(patch.slice(0, 400))}`).toBe(false);
      if (!result.ok) expect(REFUSED_PATH.has(result.code), result.code).toBe(true);
    }
  });

  it('never throws anything but the typed error, and what it accepts git reads as safe paths only', () => {
    const random = prng(SEED + 1);
    const inserts = headerLines(random);
    let accepted = 0;
    let checkedByGit = 0;
    let slowest = 0;
    for (let i = 0; i < CASES; i += 1) {
      const base = random.chance(0.9) ? random.pick(corpus) : inserts.slice(0, random.between(1, 6)).join('\n');
      const patch = mutateMany(random, base, 4, { inserts });
      const started = performance.now();
      const result = attempt(patch);
      slowest = Math.max(slowest, performance.now() - started);
      if (!result.ok) continue;
      accepted += 1;
      expect(result.files.filter(badPath), JSON.stringify(patch.slice(0, 400))).toEqual([]);
      if (checkedByGit < GIT_ORACLE_SAMPLE && random.chance(0.25)) {
        checkedByGit += 1;
        const read = gitPaths(scratch, patch);
        if (read !== null) expect(read.filter(badPath), `git reads a bad path from an accepted patch: ${JSON.stringify(patch.slice(0, 400))}`).toEqual([]);
      }
    }
    console.log(`validate-patch fuzz: ${CASES} mutated patches, ${accepted} accepted, ${checkedByGit} of them read back by git apply --numstat, slowest ${slowest.toFixed(1)} ms`);
    expect(accepted).toBeGreaterThan(CASES / 10);
    expect(checkedByGit).toBeGreaterThan(50);
    // Wall time on a shared machine (npm test runs this under nice beside the fault campaigns): a bound, not a target.
    expect(slowest).toBeLessThan(3000);
  });

  it('stays linear on huge hunks, huge header lines and long runs of spaces', () => {
    const hunk = ['diff --git a/big.txt b/big.txt', '--- a/big.txt', '+++ b/big.txt', '@@ -1,200000 +1,200000 @@', ...Array.from({ length: 200_000 }, (_, i) => ` line ${i}`), ''].join('\n');
    const spaces = `diff --git ${'a '.repeat(8000)}\r\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n`;
    const long = `diff --git ${'a '.repeat(2_000_000)}\r\n@@ -1 +1 @@\n`;
    for (const [name, patch] of [['hunk', hunk], ['spaces', spaces], ['long', long]] as const) {
      const started = performance.now();
      attempt(patch);
      expect(performance.now() - started, name).toBeLessThan(6000);
    }
    expect(attempt(hunk)).toEqual({ ok: true, files: ['big.txt'] });
  });
});
