import type { Repositories, RunRow, SubmissionSummary, TrackRow } from '../db/index.js';
import { AppError, notFound } from '../errors.js';
import { canReadGroundTruth, canSee, GROUND_TRUTH_KINDS, type Principal } from './principal.js';

/*
 * Ownership checks for one resource. Another token's resource answers exactly as an id that does not exist
 * (404 `not_found`, same message), so a submitter learns nothing about it. Without a principal (the CLI, the
 * pipeline) everything is visible. Lists filter by owner in their query instead (see ownerScope).
 */

export async function visibleSubmission(repos: Pick<Repositories, 'submissions'>, principal: Principal | undefined, id: string): Promise<SubmissionSummary> {
  const submission = await repos.submissions.getSummary(id);
  if (submission === null || (principal !== undefined && !canSee(principal, submission.ownerTokenId))) throw notFound('submission', id);
  return submission;
}

export async function visibleRun(repos: Pick<Repositories, 'runs'>, principal: Principal | undefined, id: string): Promise<RunRow> {
  const run = await repos.runs.get(id);
  if (run === null || (principal !== undefined && !canSee(principal, run.ownerTokenId))) throw notFound('run', id);
  return run;
}

export async function visibleTrack(repos: Pick<Repositories, 'tracks'>, principal: Principal | undefined, id: string): Promise<TrackRow> {
  const track = await repos.tracks.get(id);
  if (track === null || (principal !== undefined && !canSee(principal, track.ownerTokenId))) throw notFound('track', id);
  return track;
}

/**
 * A submission whose jobs and logs `principal` may read: its own (or any, for operators), and for a
 * `reference`/`revalidation` submission only while the instance is public, since its run replays the ground truth.
 */
export async function submissionWithReadableLogs(repos: Pick<Repositories, 'submissions' | 'instances'>, principal: Principal | undefined, id: string): Promise<SubmissionSummary> {
  const submission = await visibleSubmission(repos, principal, id);
  if (!GROUND_TRUTH_KINDS.includes(submission.kind) || principal === undefined || principal.role === 'operator') return submission;
  const instance = await repos.instances.get(submission.instanceId);
  if (instance !== null && canReadGroundTruth(principal, instance)) return submission;
  throw new AppError('invalid_input', `the jobs and logs of ${submission.kind} submission ${id} replay the ground truth of instance ${submission.instanceId}, which is not public: operators only`, { code: 'not_found', status: 404 });
}
