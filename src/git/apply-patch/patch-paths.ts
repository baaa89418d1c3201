import { readFile } from 'node:fs/promises';
import type { runGit } from '../run-git.js';

type Git = (args: readonly string[], extra?: { allowFailure?: boolean }) => ReturnType<typeof runGit>;

/** Paths a patch touches (old and new names) and the full preimage blob ids it records. */
export type PatchPaths = { ok: true; paths: string[]; preimageOids: string[] } | { ok: false; message: string };

/**
 * Parses a patch: `git apply --numstat -z` validates it (a malformed patch fails here) and names the
 * resulting paths; the headers (`diff --git`, `---`/`+++`, `rename from`, `copy from`) add old names,
 * which numstat omits for renames. Extra names are harmless; the caller falls back to a full index
 * if a name was missed.
 */
export async function patchPaths(git: Git, patchFile: string): Promise<PatchPaths> {
  const result = await git(['apply', '--numstat', '-z', patchFile], { allowFailure: true });
  if (result.exitCode !== 0) return { ok: false, message: result.stderr.trim() };
  const paths = new Set<string>();
  for (const field of result.stdout.toString('utf8').split('\0')) {
    const parts = field.split('\t');
    const name = parts.length >= 3 ? parts.slice(2).join('\t') : field;
    if (name !== '' && !/^\d+$|^-$/.test(name)) paths.add(name);
  }
  const patchText = await readFile(patchFile, 'utf8');
  for (const name of headerPaths(patchText)) paths.add(name);
  const preimageOids = [...patchText.matchAll(/^index ([0-9a-f]{40})\.\.[0-9a-f]{40}/gm)]
    .map((m) => m[1] ?? '')
    .filter((oid) => oid !== '' && !/^0+$/.test(oid));
  return { ok: true, paths: [...paths].filter((p) => p !== ''), preimageOids };
}

/** Old and new names from the patch headers, `a/`/`b/` prefixes removed (git's -p1). */
export function headerPaths(patchText: string): string[] {
  const names: string[] = [];
  for (const line of patchText.split('\n')) {
    const header = /^(?:rename from|rename to|copy from|copy to) (.+)$/.exec(line);
    if (header?.[1] !== undefined) {
      names.push(unquote(header[1]));
      continue;
    }
    const side = /^(?:---|\+\+\+) (.+)$/.exec(line);
    if (side?.[1] !== undefined) {
      const raw = side[1].startsWith('"') ? side[1] : side[1].split('\t')[0] ?? '';
      const name = unquote(raw.trimEnd());
      if (name !== '/dev/null') names.push(stripPrefix(name));
      continue;
    }
    const diff = /^diff --git (.+)$/.exec(line);
    if (diff?.[1] !== undefined) names.push(...diffGitNames(diff[1]));
  }
  return names;
}

function diffGitNames(rest: string): string[] {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    const first = unquote(rest.slice(0, end + 1));
    const second = unquote(rest.slice(end + 2));
    return [stripPrefix(first), stripPrefix(second)];
  }
  // Unquoted "a/X b/X": both halves are equal when the name has no rename; split in the middle.
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest.charAt(half) === ' ') {
    const first = rest.slice(0, half);
    const second = rest.slice(half + 1);
    if (first.slice(2) === second.slice(2)) return [stripPrefix(first)];
  }
  return [];
}

function closingQuote(text: string): number {
  for (let i = 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

function stripPrefix(name: string): string {
  return name.replace(/^[^/]*\//, '');
}

/** Undoes git's C-style quoting ("a\\tb", octal escapes for bytes). */
export function unquote(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"') || text.length < 2) return text;
  const bytes: number[] = [];
  const body = Buffer.from(text.slice(1, -1), 'utf8');
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };
  for (let i = 0; i < body.length; i += 1) {
    const byte = body[i] ?? 0;
    if (byte !== 92) {
      bytes.push(byte);
      continue;
    }
    const next = String.fromCharCode(body[i + 1] ?? 0);
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(body.subarray(i + 1, i + 4).toString('latin1'), 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? body[i + 1] ?? 0);
      i += 1;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
