import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { zipSync } from 'fflate';
import type { SimContext } from '../context.js';
import { nextId } from '../state.js';
import type { SimRepo, SimRun } from '../types.js';

/** After an attempt: each of its jobs' log from `<logsDir>/<jobId>.log`, each artifact directory zipped. */
export async function collectOutputs(ctx: SimContext, run: SimRun, attempt: number, repo: SimRepo, logsDir: string, artifactsDir: string): Promise<void> {
  for (const job of ctx.state.jobs.values()) {
    if (job.runId !== run.id || job.runAttempt !== attempt) continue;
    job.log = await readFile(join(logsDir, `${job.id}.log`), 'utf8').catch(() => '');
  }
  const names = await readdir(artifactsDir).catch(() => []);
  for (const name of names) {
    const files = await listFiles(join(artifactsDir, name));
    const entries: Record<string, Uint8Array> = {};
    for (const file of files) entries[relative(join(artifactsDir, name), file)] = new Uint8Array(await readFile(file));
    const now = new Date();
    ctx.state.artifacts.set(nextId(ctx.state, 'artifact'), {
      id: ctx.state.ids.artifact, runId: run.id, repoId: repo.id, name, zip: zipSync(entries),
      createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + 90 * 86_400_000).toISOString(),
    });
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full)));
    else files.push(full);
  }
  return files;
}
