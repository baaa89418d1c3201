import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Repositories } from '../db/index.js';
import { invalidInput, notFound } from '../errors.js';
import type { MirrorCache } from '../git/index.js';
import { jobId, type Queues } from '../queue/index.js';
import { parseSubtasks } from '../reports/index.js';
import { combinePatches } from '../tracks/combine-patches.js';

export interface SweepDeps {
  repos: Repositories;
  mirrors: MirrorCache;
  queues: Queues;
  logger: Logger;
}

/** One subtask run created (or found) for a candidate. */
export interface SubtaskRun {
  subtaskId: string;
  submissionId: string;
  created: boolean;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * SWE-sweep evaluation of a candidate submission: one extra submission per subtask of its instance, whose
 * patch is the candidate patch plus the subtask's hidden test patch (each on its own branch, since each is
 * its own submission), linked by parentSubmissionId/subtaskId and enqueued. The candidate submission itself
 * is the visible-suite run. A candidate patch that does not apply is graded as no change: the subtask runs
 * then carry the test patch alone. Idempotent: existing subtask runs are kept. Subtask runs have the
 * candidate's owner (the HTTP route checks that the caller may see the candidate).
 */
export async function submitSweepSubtasks(deps: SweepDeps, candidateId: string): Promise<SubtaskRun[]> {
  const candidate = await deps.repos.submissions.get(candidateId);
  if (candidate === null) throw notFound('submission', candidateId);
  if (candidate.kind !== 'candidate' || candidate.parentSubmissionId !== null || candidate.trackId !== null) {
    throw invalidInput('not_a_candidate', `submission ${candidateId} is not a candidate's visible-suite run`, undefined, 422);
  }
  const instance = await deps.repos.instances.get(candidate.instanceId);
  if (instance === null) throw notFound('instance', candidate.instanceId);
  const subtasks = parseSubtasks(instance.subtasks);
  if (subtasks.length === 0) throw invalidInput('no_subtasks', `instance ${instance.id} has no SWE-sweep subtasks`, undefined, 422);
  const existing = await deps.repos.sweep.subtaskSubmissionsOf(candidateId);
  const missing = subtasks.filter((subtask) => !existing.has(subtask.id));
  const rows = [];
  for (const subtask of missing) {
    const combined = await combinePatches(deps, instance, candidate.patch, subtask.testPatch);
    const patch = combined.ok ? combined.patch : combined.which === 'first' ? subtask.testPatch : `${candidate.patch}\n${subtask.testPatch}`;
    rows.push({
      instanceId: instance.id,
      runId: candidate.runId,
      kind: 'candidate' as const,
      patch,
      patchSha256: sha256(patch),
      idempotencyKey: null,
      requestHash: null,
      ownerTokenId: candidate.ownerTokenId,
      parentSubmissionId: candidateId,
      subtaskId: subtask.id,
    });
  }
  const ids = await deps.repos.sweep.createSubtaskSubmissions(rows);
  if (ids.length > 0) {
    try {
      await deps.queues.addBulk('prepare', ids.map((id) => ({ payload: { submissionId: id }, options: { jobId: jobId('submission', id) } })));
      await deps.repos.submissions.markEnqueued(ids);
    } catch (error) {
      deps.logger.warn({ err: error, count: ids.length }, 'enqueue failed; recovery sweep will retry');
    }
  }
  const created = new Map(missing.map((subtask, index) => [subtask.id, ids[index] ?? '']));
  return subtasks.map((subtask) => {
    const old = existing.get(subtask.id);
    return old !== undefined ? { subtaskId: subtask.id, submissionId: old, created: false } : { subtaskId: subtask.id, submissionId: created.get(subtask.id) ?? '', created: true };
  });
}
