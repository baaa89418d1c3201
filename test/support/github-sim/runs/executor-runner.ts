import type { Logger } from 'pino';
import { runWorkflow } from '../../../../src/executor/index.js';
import type { WorkflowRunner } from './runner.js';

export interface ExecutorRunnerOptions {
  logger: Logger;
  /** Extra environment for every step. */
  env?: Record<string, string>;
  maxParallelJobs?: number;
}

/** Runs simulated GitHub Actions runs with the project's local executor (src/executor). */
export function createExecutorRunner(options: ExecutorRunnerOptions): WorkflowRunner {
  return {
    async run(ctx) {
      const seen = new Set<string>();
      const result = await runWorkflow({
        workflow: { text: ctx.workflow.text, path: ctx.workflow.path },
        repo: { gitDir: ctx.repo.gitDir, fullName: ctx.repo.fullName },
        sha: ctx.sha,
        ref: ctx.ref,
        runId: ctx.runId,
        runAttempt: ctx.runAttempt,
        workRoot: ctx.workRoot,
        logsDir: ctx.logsDir,
        artifactsDir: ctx.artifactsDir,
        eventName: ctx.event,
        signal: ctx.signal,
        nextJobId: ctx.nextJobId,
        onEvent: (event) => {
          if (event.kind === 'workflow_job') seen.add(event.jobId);
          ctx.onEvent(event);
        },
        logger: options.logger,
        ...(options.env ? { env: options.env } : {}),
        ...(options.maxParallelJobs ? { maxParallelJobs: options.maxParallelJobs } : {}),
      });
      // Jobs that never ran (needs failed, if: false) have a result but no events; GitHub still lists them.
      for (const job of result.jobs) {
        if (seen.has(job.id)) continue;
        ctx.onEvent({
          kind: 'workflow_job', repoFullName: ctx.repo.fullName, runId: ctx.runId, runAttempt: ctx.runAttempt, jobId: job.id, headSha: ctx.sha,
          headBranch: ctx.ref.startsWith('refs/heads/') ? ctx.ref.slice('refs/heads/'.length) : null, name: job.name, status: 'completed',
          conclusion: job.conclusion, startedAt: job.startedAt, completedAt: job.completedAt, runnerName: null, labels: [], steps: job.steps, htmlUrl: null,
        });
      }
      return { conclusion: result.conclusion, jobKeys: Object.fromEntries(result.jobs.map((job) => [job.id, job.key])) };
    },
  };
}
