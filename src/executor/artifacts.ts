import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';

/** Files (absolute paths) matched by upload-artifact style patterns (globs, `!` exclusions, directories). */
export function matchFiles(root: string, patterns: string[]): { files: string[]; base: string } {
  const include = patterns.filter((p) => !p.startsWith('!'));
  const exclude = patterns.filter((p) => p.startsWith('!')).map((p) => resolve(root, p.slice(1)));
  const isExcluded = exclude.length === 0 ? () => false : picomatch(exclude, { dot: true });
  const files = new Set<string>();
  const bases: string[] = [];
  for (const pattern of include) {
    const absolute = resolve(root, pattern);
    if (!picomatch.scan(absolute).isGlob) {
      if (!existsSync(absolute)) continue;
      bases.push(statSync(absolute).isDirectory() ? absolute : dirname(absolute));
      for (const f of walk(absolute)) files.add(f);
      continue;
    }
    const scan = picomatch.scan(absolute);
    const base = scan.base === '' ? root : scan.base;
    bases.push(base);
    const isMatch = picomatch(absolute, { dot: true });
    for (const f of walk(base)) if (isMatch(f)) files.add(f);
  }
  const kept = [...files].filter((f) => !isExcluded(f)).sort();
  return { files: kept, base: commonAncestor(bases.length > 0 ? bases : [root]) };
}

function walk(path: string): string[] {
  if (!existsSync(path)) return [];
  const stat = lstatSync(path);
  if (stat.isFile()) return [path];
  if (!stat.isDirectory()) return [];
  return readdirSync(path).flatMap((name) => walk(join(path, name)));
}

function commonAncestor(paths: string[]): string {
  const split = paths.map((p) => p.split(sep));
  const first = split[0] ?? [];
  let n = first.length;
  for (const parts of split) {
    let i = 0;
    while (i < n && parts[i] === first[i]) i += 1;
    n = i;
  }
  return first.slice(0, n).join(sep) || sep;
}

/**
 * Copies files into `dest`, keeping their paths relative to `base`; returns the bytes copied. `guard` sees each
 * target before anything is created for it (and throws to refuse it).
 */
export function copyFiles(files: string[], base: string, dest: string, guard?: (target: string) => void): number {
  let size = 0;
  for (const file of files) {
    const rel = relative(base, file);
    const target = isAbsolute(rel) || rel.startsWith('..') ? join(dest, file) : join(dest, rel);
    guard?.(target);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
    size += statSync(target).size;
  }
  return size;
}

/** GitHub's hashFiles(): sha256 over the sha256 of each matched file (sorted); '' when nothing matches. */
export function hashFiles(root: string, patterns: string[]): string {
  const { files } = matchFiles(root, patterns);
  const inside = files.filter((f) => f.startsWith(`${root}${sep}`));
  if (inside.length === 0) return '';
  const outer = createHash('sha256');
  for (const file of inside) outer.update(createHash('sha256').update(readFileSync(file)).digest());
  return outer.digest('hex');
}
