import type { Logger } from 'pino';
import { judgeJob, judgeRun, readEvidence, type JudgedJob, type RunJudgement } from '../classify/outcome/index.js';
import type { JobWithSteps, WorkflowRunRow } from '../db/index.js';
import { isJobOutcome, type Outcome, type OutcomeEvidence, type SubmissionState, type Verdict } from '../domain/states.js';
import { transient } from '../errors.js';
import { archiveAndClassify } from './archive-job-log.js';
import type { PipelineDeps } from './context.js';
import { faultPoint } from './fault-point.js';
import { observedErrorTypes } from './observed-labels.js';
import { renderResultSummary } from './summary.js';
import { collectTestResults } from './test-results.js';
import { checkTestsRun, type TestsRunCheck } from './tests-not-run.js';

/** The attempt the verdict uses: the latest attempt of the latest run. */
export function latestRun(runs: WorkflowRunRow[]): WorkflowRunRow | undefined {
  return [...runs].sort((a, b) => (a.githubRunId === b.githubRunId ? a.runAttempt - b.runAttempt : a.githubRunId < b.githubRunId ? -1 : 1)).at(-1);
}

/** What a run's judgement makes of its submission. */
export interface SubmissionDecision {
  state: SubmissionState;
  verdict: Verdict;
  outcome: Outcome;
  reason: string | null;
  reasonDetails: OutcomeEvidence | null;
}

/**
 * passed → completed/passed; failed (the repository's own steps) → completed/failed; infra_error, timed_out and
 * cancelled → that state with the verdict `invalid` (the patch was not evaluated).
 */
export function decideSubmission(run: RunJudgement): SubmissionDecision {
  switch (run.outcome) {
    case 'passed':
      return { state: 'completed', verdict: 'passed', outcome: 'passed', reason: null, reasonDetails: null };
    case 'failed':
      return { state: 'completed', verdict: 'failed', outcome: 'failed', reason: run.reason, reasonDetails: run.details };
    default:
      return { state: run.outcome, verdict: 'invalid', outcome: run.outcome, reason: run.reason, reasonDetails: run.details };
  }
}

const judged = (job: JobWithSteps): JudgedJob => ({
  name: job.name,
  outcome: isJobOutcome(job.outcome) ? job.outcome : null,
  reason: job.outcomeReason,
  evidence: readEvidence(job.outcomeEvidence),
});

/**
 * Judges every completed job of the attempt that has no outcome yet. Failed jobs, and cancelled or timed-out ones
 * when nobody asked to cancel (a job over its time limit concludes `cancelled`), are judged from their archived log
 * (archived here when the logs worker has not yet); the others from their conclusion. A failed job without labels
 * is (re)classified: the logs worker may be between archiving and storing labels; both paths are idempotent.
 */
async function judgeJobs(deps: PipelineDeps, submissionId: string, jobs: JobWithSteps[], cancelRequested: boolean, logger: Logger): Promise<void> {
  for (const job of jobs) {
    if (job.status !== 'completed') continue;
    const readsLog = job.conclusion === 'failure' || (!cancelRequested && (job.conclusion === 'cancelled' || job.conclusion === 'timed_out'));
    if (readsLog) {
      if (job.outcome === null || (job.conclusion === 'failure' && job.failureLabels.length === 0)) await archiveAndClassify(deps, submissionId, job.id, logger);
      continue;
    }
    if (job.outcome !== null) continue;
    const judgement = judgeJob({ status: job.status, conclusion: job.conclusion, steps: job.steps, log: null });
    if (judgement !== null) await deps.repos.ci.saveJobOutcome(job.id, judgement);
  }
}

/**
 * The `finalize` job: take the final job list from the backend (jobs that never queued appear only there), judge
 * each job's outcome from its log (archiving and classifying failed jobs), decide the run's outcome from its jobs
 * (see judgeRun: a real failure anywhere → failed; only platform errors → infra_error with the first one's
 * reason and evidence), store it on the run and the submission, and report the result (check run). Re-running it
 * gives the same result.
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
  const cancelRequested = submission.cancelRequestedAt !== null;
  await judgeJobs(deps, submissionId, await deps.repos.ci.jobsOfRun(run.id), cancelRequested, logger);
  const jobs = await deps.repos.ci.jobsOfRun(run.id);
  const jobIds = new Set(jobs.map((job) => job.id));
  const labels = (await deps.repos.ci.labelsOf(submissionId)).filter((label) => jobIds.has(label.jobId));
  const observedLabels = observedErrorTypes(labels);
  // Per-test results (JUnit XML artifacts) are stored before the state changes: a SWE-CI round is kept only
  // when its submission completed with test results.
  await collectTestResults(deps, submissionId, ref).catch((error: unknown) => logger.warn({ err: error, submissionId }, 'test results not collected'));
  const runJudgement = judgeRun({ conclusion: run.conclusion, cancelRequested, jobs: jobs.map(judged) });
  await deps.repos.ci.saveRunOutcome(run.id, { outcome: runJudgement.outcome, reason: runJudgement.reason });
  const runDecision = decideSubmission(runJudgement);
  // SWE-CI rounds are scored on their own test sets and SWE-sweep subtask runs run only their targeted tests:
  // neither is compared with the reference run.
  const testsCheck = runDecision.outcome === 'passed' && submission.kind === 'candidate' && submission.trackId === null && submission.parentSubmissionId === null ? await checkTestsRun(deps, submission) : null;
  const decision = applyTestsCheck(runDecision, testsCheck);
  if (testsCheck !== null) logger.info({ submissionId, basis: testsCheck.basis, ok: testsCheck.ok }, 'tests-run check');
  const patch = {
    verdict: decision.verdict,
    outcome: decision.outcome,
    reason: decision.reason,
    ...(decision.reasonDetails === null ? {} : { reasonDetails: decision.reasonDetails }),
    observedLabels,
    completedAt: new Date(),
  };
  await faultPoint(deps.config, 'finalizing', submissionId, logger);
  const moved = await deps.repos.submissions.transition(submissionId, ['published', 'running'], decision.state, patch);
  if (!moved) {
    // A later attempt (a re-run) of an already finished submission: the verdict follows the latest attempt.
    if (submission.state !== 'completed' || decision.state !== 'completed') {
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
    verdict: decision.verdict,
    summary: renderResultSummary(updated, jobs, labels, decision.verdict, detailsUrl),
    annotations,
  });
  logger.info({ submissionId, verdict: decision.verdict, outcome: decision.outcome, reason: decision.reason, observedLabels }, 'submission finalized');
}

/**
 * A candidate whose run passed but executed fewer of the reference run's tests did not pass: outcome `failed`,
 * reason `tests_not_run`, the missing tests in the details. A passing check leaves the decision alone but records
 * what was compared (`basis`; `no_reference` says nothing could be).
 */
export function applyTestsCheck(decision: SubmissionDecision, check: TestsRunCheck | null): SubmissionDecision {
  if (check === null) return decision;
  if (check.ok) return { ...decision, reasonDetails: { step: null, lines: [], testsCheck: { basis: check.basis, referenceSubmissionId: check.referenceSubmissionId, summary: check.summary } } };
  return {
    state: 'completed',
    verdict: 'failed',
    outcome: 'failed',
    reason: 'tests_not_run',
    reasonDetails: {
      step: null,
      lines: [],
      testsCheck: {
        basis: check.basis,
        referenceSubmissionId: check.referenceSubmissionId,
        summary: check.summary,
        missing: check.missing,
        ...(check.candidateOutcomes === undefined ? {} : { candidateOutcomes: check.candidateOutcomes }),
        ...(check.counts === undefined ? {} : { counts: check.counts }),
      },
    },
  };
}

function annotationLevel(level: string | undefined): 'failure' | 'warning' | 'notice' {
  return level === 'warning' || level === 'notice' ? level : 'failure';
}
