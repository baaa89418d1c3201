#!/usr/bin/env node
/**
 * Builds the dashboard (ui/, Vite) into dist/ui when it is stale: any file under ui/ newer than the last build,
 * or no build yet. `--force` always builds. Run by `npm run build`, `npm run build:ui` and the dashboard tests.
 */
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const uiDir = join(root, 'ui');
const outDir = join(root, 'dist', 'ui');
const stamp = join(outDir, '.build-stamp');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether dist/ui is missing or older than a file of ui/ (or this script). */
export function uiIsStale() {
  if (!existsSync(stamp) || !existsSync(join(outDir, 'index.html'))) return true;
  const built = statSync(stamp).mtimeMs;
  return Math.max(newestMtime(uiDir), statSync(fileURLToPath(import.meta.url)).mtimeMs) > built;
}

/** Builds when stale (or forced); returns whether it built. */
export async function buildUi({ force = false } = {}) {
  if (!force && !uiIsStale()) return false;
  const { build } = await import('vite');
  await build({ configFile: join(uiDir, 'vite.config.ts'), logLevel: 'warn' });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildUi({ force: process.argv.includes('--force') });
  console.log(built ? `dashboard built into ${outDir}` : `dashboard up to date in ${outDir}`);
}
