import { readFile } from 'node:fs/promises';
import type { runGit } from '../run-git.js';

type Git = (args: readonly string[], extra?: { allowFailure?: boolean }) => ReturnType<typeof runGit>;

/** Paths a patch touches and the full preimage blob ids it records. */
export type PatchPaths = { ok: true; paths: string[]; preimageOids: string[] } | { ok: false; message: string };

/** Parses a patch with `git apply --numstat -z` (no repository state needed); a malformed patch fails here. */
export async function patchPaths(git: Git, patchFile: string): Promise<PatchPaths> {
  const result = await git(['apply', '--numstat', '-z', patchFile], { allowFailure: true });
  if (result.exitCode !== 0) return { ok: false, message: result.stderr.trim() };
  const fields = result.stdout.toString('utf8').split('\0');
  const paths: string[] = [];
  let i = 0;
  while (i < fields.length) {
    const field = fields[i] ?? '';
    const parts = field.split('\t');
    if (parts.length < 3) {
      i += 1;
      continue;
    }
    const inline = parts.slice(2).join('\t');
    if (inline !== '') {
      paths.push(inline);
      i += 1;
    } else {
      paths.push(fields[i + 1] ?? '', fields[i + 2] ?? '');
      i += 3;
    }
  }
  const patchText = await readFile(patchFile, 'utf8');
  const preimageOids = [...patchText.matchAll(/^index ([0-9a-f]{40})\.\.[0-9a-f]{40}/gm)]
    .map((m) => m[1] ?? '')
    .filter((oid) => oid !== '' && !/^0+$/.test(oid));
  return { ok: true, paths: paths.filter((p) => p !== ''), preimageOids };
}
