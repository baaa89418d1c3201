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
        onEvent: ctx.onEvent,
        logger: options.logger,
        ...(options.env ? { env: options.env } : {}),
        ...(options.maxParallelJobs ? { maxParallelJobs: options.maxParallelJobs } : {}),
      });
      return { conclusion: result.conclusion };
    },
  };
}
