import type { Logger } from 'pino';
import { classifyJob } from '../classify/index.js';
import type { PipelineDeps } from './context.js';

/**
 * Archives a job's log (compressed) and classifies it into the 12 error types with evidence. Idempotent: a log
 * already archived is re-read from the archive, and labels are unique per (job, type).
 */
export async function archiveAndClassify(deps: Pick<PipelineDeps, 'repos' | 'backend' | 'logStore'>, submissionId: string, jobRowId: string, logger: Logger): Promise<void> {
  const job = await deps.repos.ci.getJob(jobRowId);
  if (job === null) return;
  const key = `logs/${submissionId}/${job.githubJobId.toString()}.log`;
  let stored = await deps.logStore.open(key);
  if (stored === null) {
    const source = await deps.backend.openJobLog({ repoFullName: job.workflowRun.repoFullName, runId: job.workflowRun.githubRunId.toString(), jobId: job.githubJobId.toString() });
    if (source === null) {
      logger.warn({ jobId: job.githubJobId.toString() }, 'job has no log');
      return;
    }
    const meta = await deps.logStore.put(key, source);
    await deps.repos.ci.saveJobLog(job.id, { storageKey: key, ...meta });
    stored = await deps.logStore.open(key);
    if (stored === null) return;
  }
  const classification = await classifyJob({
    log: stored,
    jobConclusion: job.conclusion,
    steps: job.steps.map((step) => ({
      number: step.number,
      name: step.name,
      conclusion: step.conclusion,
      startedAt: step.startedAt?.toISOString() ?? null,
      completedAt: step.completedAt?.toISOString() ?? null,
    })),
  });
  await deps.repos.ci.saveFailureLabels(
    submissionId,
    job.id,
    classification.labels.map((label) => ({ type: label.type, tool: label.tool ?? null, stepName: label.stepName ?? null, evidence: label.evidence, findings: label.findings })),
  );
}
