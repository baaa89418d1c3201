import type { Repositories, RunRow } from '../db/index.js';
import { invalidInput, notFound } from '../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A run named by id (UUID) or by label (the newest CLI run with that label). */
export async function findRun(repos: Pick<Repositories, 'runs'>, ref: string): Promise<RunRow> {
  if (ref.trim() === '') throw invalidInput('invalid_run', 'name a run by id or label');
  const run = UUID.test(ref) ? await repos.runs.get(ref) : await repos.runs.findByLabel(ref, null);
  if (run === null) throw notFound('run', ref);
  return run;
}

/** The run a campaign goes to: the run with this id, or the CLI's run with this label, created when there is none. */
export async function ensureRun(repos: Pick<Repositories, 'runs'>, ref: string, metadata: Record<string, unknown>): Promise<{ run: RunRow; created: boolean }> {
  if (UUID.test(ref)) return { run: await findRun(repos, ref), created: false };
  const label = ref.trim();
  if (label === '' || label.length > 200) throw invalidInput('invalid_run', '--run must be a run id or a label of 1 to 200 characters');
  const existing = await repos.runs.findByLabel(label, null);
  if (existing !== null) return { run: existing, created: false };
  return { run: await repos.runs.create({ label, metadata, ownerTokenId: null }), created: true };
}
