import type { Logger } from 'pino';
import { LOG_READ_BYTES } from '../classify/index.js';
import { judgeJobLog } from '../classify/outcome/index.js';
import type { PipelineDeps } from './context.js';
import { faultPoint } from './fault-point.js';

/**
 * Archives a job's log (compressed), classifies it into the 12 error types with evidence and judges the job's
 * outcome (passed, failed, infra_error, cancelled, timed_out) with its reason and evidence lines. Idempotent: a log
 * already archived is re-read from the archive, labels are unique per (job, type), the outcome is overwritten.
 */
export async function archiveAndClassify(deps: Pick<PipelineDeps, 'repos' | 'backend' | 'logStore'> & Partial<Pick<PipelineDeps, 'config'>>, submissionId: string, jobRowId: string, logger: Logger): Promise<void> {
  const job = await deps.repos.ci.getJob(jobRowId);
  if (job === null) return;
  const steps = job.steps.map((step) => ({
    number: step.number,
    name: step.name,
    status: step.status,
    conclusion: step.conclusion,
    startedAt: step.startedAt?.toISOString() ?? null,
    completedAt: step.completedAt?.toISOString() ?? null,
  }));
  const key = `logs/${submissionId}/${job.githubJobId.toString()}.log`;
  const ref = { repoFullName: job.workflowRun.repoFullName, runId: job.workflowRun.githubRunId.toString(), jobId: job.githubJobId.toString() };
  // the executor's own account of the job (local backend): its messages in the log count only where it confirms them
  const executor = deps.backend.readExecutorReport === undefined ? undefined : await deps.backend.readExecutorReport(ref);
  let stored = await deps.logStore.open(key, { chunkBytes: LOG_READ_BYTES });
  if (stored === null) {
    const source = await deps.backend.openJobLog(ref);
    if (source === null) {
      logger.warn({ jobId: job.githubJobId.toString() }, 'job has no log');
      // Judged from its conclusion and steps alone (a job that never got a runner has no log).
      const { judgement } = await judgeJobLog({ log: null, status: job.status, conclusion: job.conclusion, steps, executor });
      if (judgement !== null) await deps.repos.ci.saveJobOutcome(job.id, judgement);
      return;
    }
    if (deps.config !== undefined) await faultPoint(deps.config, 'archiving', submissionId, logger);
    const meta = await deps.logStore.put(key, source);
    await deps.repos.ci.saveJobLog(job.id, { storageKey: key, ...meta });
    stored = await deps.logStore.open(key, { chunkBytes: LOG_READ_BYTES });
    if (stored === null) return;
  }
  const { judgement, classification } = await judgeJobLog({
    log: stored,
    status: job.status,
    conclusion: job.conclusion,
    steps,
    executor,
  });
  if (judgement !== null) await deps.repos.ci.saveJobOutcome(job.id, judgement);
  // Labels say why a job failed: cancelled and timed-out jobs are judged here too but get none.
  if (classification === null || job.conclusion !== 'failure') return;
  await deps.repos.ci.saveFailureLabels(
    submissionId,
    job.id,
    classification.labels.map((label) => ({ type: label.type, tool: label.tool ?? null, stepName: label.stepName ?? null, evidence: label.evidence, findings: label.findings })),
  );
}
