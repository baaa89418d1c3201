import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { transform } from 'esbuild';
import { projectRoot } from '../../src/paths.js';

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : Promise.resolve(entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []))));
  return nested.flat().sort();
}

/**
 * Transpiles src/ to JavaScript once per test run, as tsx does per process (esbuild, type-only imports dropped), so
 * the CLI and worker processes the tests spawn start without tsx's loader: about 1.2 s less per process (2.4 s →
 * 1.2 s for `ci-replay --help` here), over the hundreds of processes the CLI, e2e and fault tests spawn.
 * The folder is named after the sources' digest under node_modules/.cache (projectRoot() still finds package.json
 * above it), so a run whose sources did not change reuses it and concurrent runs never write the same folder.
 * Transpiling touches the sources only; a type error is tsc's to report (npm run check runs it first).
 */
export async function buildForTests(): Promise<string> {
  const root = projectRoot();
  const files = await sourceFiles(join(root, 'src'));
  const texts = await Promise.all(files.map((file) => readFile(file, 'utf8')));
  const digest = createHash('sha256');
  files.forEach((file, i) => digest.update(`${relative(root, file)}\0${texts[i]}\0`));
  const cache = join(root, 'node_modules', '.cache', 'ci-replay-test-build');
  const out = join(cache, digest.digest('hex').slice(0, 16));
  if (existsSync(join(out, 'src', 'main.js'))) return out;
  const staging = `${out}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await Promise.all(
    files.map(async (file, i) => {
      const target = join(staging, relative(root, file)).replace(/\.ts$/, '.js');
      const { code } = await transform(texts[i] ?? '', { loader: 'ts', format: 'esm', target: 'node20', sourcemap: 'inline', sourcefile: file });
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, code);
    }),
  );
  await rename(staging, out).catch(async (error: unknown) => {
    // Another run built the same sources first: use its folder.
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(join(out, 'src', 'main.js'))) throw error;
  });
  await removeStale(cache, out);
  return out;
}

/** Builds of other sources older than a day (about 9 MB each): removed, so editing src/ does not fill the cache. */
async function removeStale(cache: string, keep: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of await readdir(cache)) {
    const dir = join(cache, name);
    if (dir === keep) continue;
    const { mtimeMs } = await stat(dir);
    if (mtimeMs < dayAgo) await rm(dir, { recursive: true, force: true });
  }
}
