import type { CiConclusion, CiEvent, CiStatus, StepOutcome } from '../domain/ci-events.js';

/** Translates GitHub workflow_run / workflow_job webhook payloads into normalized events (null for anything else). */
export function eventFromWebhook(name: string, payload: unknown): CiEvent | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const body = payload as Record<string, unknown>;
  const repo = body.repository as { full_name?: string } | undefined;
  if (repo?.full_name === undefined) return null;
  if (name === 'workflow_run') {
    const run = body.workflow_run as Record<string, unknown> | undefined;
    if (run === undefined) return null;
    return {
      kind: 'workflow_run',
      repoFullName: repo.full_name,
      runId: String(run.id),
      runAttempt: Number(run.run_attempt ?? 1),
      headSha: String(run.head_sha),
      headBranch: (run.head_branch as string | null) ?? null,
      name: (run.name as string | null) ?? null,
      path: (run.path as string | null) ?? null,
      event: (run.event as string | null) ?? null,
      status: String(run.status) as CiStatus,
      conclusion: (run.conclusion as CiConclusion | null) ?? null,
      htmlUrl: (run.html_url as string | null) ?? null,
      runStartedAt: (run.run_started_at as string | null) ?? null,
      updatedAt: (run.updated_at as string | null) ?? null,
    };
  }
  if (name === 'workflow_job') {
    const job = body.workflow_job as Record<string, unknown> | undefined;
    if (job === undefined) return null;
    return jobEventFromApi(repo.full_name, job);
  }
  return null;
}

/** A job object as the REST API (list jobs for a run) or the workflow_job webhook shows it. */
export function jobEventFromApi(repoFullName: string, job: Record<string, unknown>): CiEvent & { kind: 'workflow_job' } {
  const steps = Array.isArray(job.steps) ? (job.steps as Record<string, unknown>[]) : [];
  return {
    kind: 'workflow_job',
    repoFullName,
    runId: String(job.run_id),
    runAttempt: Number(job.run_attempt ?? 1),
    jobId: String(job.id),
    headSha: String(job.head_sha),
    headBranch: (job.head_branch as string | null) ?? null,
    name: String(job.name),
    status: String(job.status) as CiStatus,
    conclusion: (job.conclusion as CiConclusion | null) ?? null,
    startedAt: (job.started_at as string | null) ?? null,
    completedAt: (job.completed_at as string | null) ?? null,
    runnerName: (job.runner_name as string | null) ?? null,
    labels: Array.isArray(job.labels) ? (job.labels as string[]) : [],
    steps: steps.map(
      (step): StepOutcome => ({
        number: Number(step.number),
        name: String(step.name),
        status: String(step.status) as StepOutcome['status'],
        conclusion: (step.conclusion as CiConclusion | null) ?? null,
        startedAt: (step.started_at as string | null) ?? null,
        completedAt: (step.completed_at as string | null) ?? null,
      }),
    ),
    htmlUrl: (job.html_url as string | null) ?? null,
  };
}
