import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { projectRoot } from '../../src/paths.js';

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : Promise.resolve(entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []))));
  return nested.flat().sort();
}

/**
 * Builds src/ once per test run into one ES module, `src/main.js` (esbuild, as tsx transpiles per process: type-only
 * imports dropped; packages stay imports from node_modules; a linked source map for `--enable-source-maps`), so the
 * CLI and worker processes the tests spawn start without tsx's loader and without resolving and loading ~300 modules
 * of src/ one by one: `ci-replay --help` takes 2.4 s through tsx, 1.6 s as one file per module and 1.2 s as one
 * bundle here (CPU 2.2 s → 1.4 s), over the hundreds of processes the CLI, e2e and fault tests spawn. src/ finds
 * its files from the project root (src/paths.ts walks up to package.json), which the bundle's place keeps.
 * The folder is named after the sources' digest under node_modules/.cache (projectRoot() still finds package.json
 * above it), so a run whose sources did not change reuses it and concurrent runs never write the same folder.
 * Building touches the sources only; a type error is tsc's to report (npm run check runs it first).
 */
export async function buildForTests(): Promise<string> {
  const root = projectRoot();
  const files = await sourceFiles(join(root, 'src'));
  const texts = await Promise.all(files.map((file) => readFile(file, 'utf8')));
  // The build's layout is part of the key: a folder built another way (one file per module) is not reused.
  const digest = createHash('sha256').update('bundle\0');
  files.forEach((file, i) => digest.update(`${relative(root, file)}\0${texts[i]}\0`));
  const cache = join(root, 'node_modules', '.cache', 'ci-replay-test-build');
  const out = join(cache, digest.digest('hex').slice(0, 16));
  if (existsSync(join(out, 'src', 'main.js'))) return out;
  const staging = `${out}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await build({
    entryPoints: [join(root, 'src', 'main.ts')],
    outfile: join(staging, 'src', 'main.js'),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  await rename(staging, out).catch(async (error: unknown) => {
    // Another run built the same sources first: use its folder.
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(join(out, 'src', 'main.js'))) throw error;
  });
  await removeStale(cache, out);
  return out;
}

/** Builds of other sources older than a day (about 6 MB each): removed, so editing src/ does not fill the cache. */
async function removeStale(cache: string, keep: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of await readdir(cache)) {
    const dir = join(cache, name);
    if (dir === keep) continue;
    const { mtimeMs } = await stat(dir);
    if (mtimeMs < dayAgo) await rm(dir, { recursive: true, force: true });
  }
}
