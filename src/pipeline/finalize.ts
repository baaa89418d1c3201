import type { Logger } from 'pino';
import type { WorkflowRunRow } from '../db/index.js';
import type { SubmissionState } from '../domain/states.js';
import { transient } from '../errors.js';
import { archiveAndClassify } from './archive-job-log.js';
import type { PipelineDeps } from './context.js';
import { renderResultSummary } from './summary.js';
import { collectTestResults } from './test-results.js';

/** The attempt the verdict uses: the latest attempt of the latest run. */
export function latestRun(runs: WorkflowRunRow[]): WorkflowRunRow | undefined {
  return [...runs].sort((a, b) => (a.githubRunId === b.githubRunId ? a.runAttempt - b.runAttempt : a.githubRunId < b.githubRunId ? -1 : 1)).at(-1);
}

function outcomeOf(conclusion: string | null): { state: SubmissionState; verdict: 'passed' | 'failed' | 'invalid'; reason: string | null } {
  if (conclusion === 'success') return { state: 'completed', verdict: 'passed', reason: null };
  if (conclusion === 'cancelled') return { state: 'cancelled', verdict: 'invalid', reason: 'cancelled' };
  if (conclusion === 'timed_out') return { state: 'timed_out', verdict: 'invalid', reason: 'timed_out' };
  if (conclusion === 'startup_failure' || conclusion === 'stale' || conclusion === 'action_required') return { state: 'infra_error', verdict: 'invalid', reason: conclusion };
  return { state: 'completed', verdict: 'failed', reason: null };
}

/**
 * The `finalize` job: take the final job list from the backend (jobs that never queued appear only there),
 * make sure every failed job's log is archived and classified, decide the verdict from the latest attempt,
 * and report the result (check run). Re-running it gives the same result.
 */
export async function finalizeSubmission(deps: PipelineDeps, submissionId: string, logger: Logger): Promise<void> {
  const submission = await deps.repos.submissions.getSummary(submissionId);
  if (submission === null) return;
  // A run can complete before prepare recorded the publication (webhooks are fast): retry until it did.
  if (submission.state === 'queued' || submission.state === 'preparing') throw transient('not_published_yet', `submission ${submissionId} is not published yet`);
  const run = latestRun(await deps.repos.ci.runsOf(submissionId));
  if (run === undefined || run.status !== 'completed') {
    logger.info({ submissionId }, 'finalize deferred: latest run not completed');
    return;
  }
  const ref = { repoFullName: run.repoFullName, runId: run.githubRunId.toString(), runAttempt: run.runAttempt };
  for (const job of await deps.backend.listRunJobs(ref)) await deps.repos.ci.applyJobEvent(submissionId, job);
  let jobs = await deps.repos.ci.jobsOfRun(run.id);
  // A failed job without labels is (re)classified here: the logs worker may not have archived it yet, or may be
  // between archiving and storing labels. Both paths are idempotent, so doing it twice is harmless.
  for (const job of jobs) {
    if (job.conclusion === 'failure' && job.failureLabels.length === 0) await archiveAndClassify(deps, submissionId, job.id, logger);
  }
  jobs = await deps.repos.ci.jobsOfRun(run.id);
  const jobIds = new Set(jobs.map((job) => job.id));
  const labels = (await deps.repos.ci.labelsOf(submissionId)).filter((label) => jobIds.has(label.jobId));
  const observedLabels = [...new Set(labels.map((label) => label.type))];
  // Per-test results (JUnit XML artifacts) are stored before the state changes: a SWE-CI round is kept only
  // when its submission completed with test results.
  await collectTestResults(deps, submissionId, ref).catch((error: unknown) => logger.warn({ err: error, submissionId }, 'test results not collected'));
  const outcome = outcomeOf(run.conclusion);
  const patch = { verdict: outcome.verdict, reason: outcome.reason, observedLabels, completedAt: new Date() };
  const moved = await deps.repos.submissions.transition(submissionId, ['published', 'running'], outcome.state, patch);
  if (!moved) {
    // A later attempt (a re-run) of an already finished submission: the verdict follows the latest attempt.
    if (submission.state !== 'completed' || outcome.state !== 'completed') {
      logger.info({ submissionId, state: submission.state }, 'finalize: submission already final');
      return;
    }
    await deps.repos.submissions.update(submissionId, patch);
  }
  const updated = (await deps.repos.submissions.getSummary(submissionId)) ?? submission;
  const detailsUrl = `${deps.config.publicUrl}/v1/submissions/${submissionId}`;
  const annotations = labels.flatMap((label) =>
    (Array.isArray(label.findings) ? (label.findings as { path: string; line: number; message: string; level?: string; tool?: string }[]) : []).map((finding) => ({
      path: finding.path,
      line: finding.line,
      level: annotationLevel(finding.level),
      message: finding.message,
      title: `${label.type}${finding.tool === undefined ? '' : ` (${finding.tool})`}`,
    })),
  );
  await deps.backend.reportResult({
    submissionId,
    repoFullName: run.repoFullName,
    headSha: run.headSha,
    checkRunId: updated.checkRunId,
    verdict: outcome.verdict,
    summary: renderResultSummary(updated, jobs, labels, outcome.verdict, detailsUrl),
    annotations,
  });
  logger.info({ submissionId, verdict: outcome.verdict, observedLabels }, 'submission finalized');
}

function annotationLevel(level: string | undefined): 'failure' | 'warning' | 'notice' {
  return level === 'warning' || level === 'notice' ? level : 'failure';
}
