import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { canReadGroundTruth } from '../../auth/principal.js';
import { submissionWithReadableLogs } from '../../auth/visibility.js';
import { isLearnedLabel, segmentLogs, type SegmentLogInput } from '../../classify/index.js';
import { invalidInput, notFound } from '../../errors.js';
import { latestRun } from '../../pipeline/finalize.js';
import type { LogStore } from '../../storage/log-store.js';
import type { AppDeps } from '../app.js';
import { principalOf } from '../auth.js';
import { parseInput } from '../validate.js';

const submissionParams = z.object({ id: z.uuid('must be a submission id (UUID)') });
const instanceParams = z.object({ id: z.string().min(1).max(200) });
const segmentQuery = z.object({
  budget: z.coerce.number().int().min(50).max(1_000_000).default(8000),
  context: z.coerce.number().int().min(0).max(200).optional(),
});

/** Per-job results and the log segments a repair agent needs (`GET …/logs/segments?budget=<tokens>`). */
export function resultRoutes(logStore: LogStore) {
  return (app: FastifyInstance, deps: AppDeps): void => {
    app.get('/v1/submissions/:id/jobs', { schema: { tags: ['submissions'], summary: "Workflow runs (attempts), jobs, steps and failure labels with evidence (another token's submission is 404)" } }, async (request) => {
      const { id } = parseInput(submissionParams, request.params, 'params');
      await submissionWithReadableLogs(deps.repos, principalOf(request), id);
      const runs = await deps.repos.ci.runsOf(id);
      return {
        runs: await Promise.all(
          runs.map(async (run) => ({
            runId: run.githubRunId.toString(),
            attempt: run.runAttempt,
            status: run.status,
            conclusion: run.conclusion,
            outcome: run.outcome,
            outcomeReason: run.outcomeReason,
            htmlUrl: run.htmlUrl,
            jobs: (await deps.repos.ci.jobsOfRun(run.id)).map((job) => ({
              jobId: job.githubJobId.toString(),
              name: job.name,
              status: job.status,
              conclusion: job.conclusion,
              outcome: job.outcome,
              outcomeReason: job.outcomeReason,
              outcomeEvidence: job.outcomeEvidence,
              failedStep: job.failedStep,
              startedAt: job.startedAt,
              completedAt: job.completedAt,
              steps: job.steps.map((step) => ({ number: step.number, name: step.name, status: step.status, conclusion: step.conclusion, startedAt: step.startedAt, completedAt: step.completedAt })),
              labels: job.failureLabels.map((label) => ({ type: label.type, tool: label.tool, learned: isLearnedLabel(label), stepName: label.stepName, evidence: label.evidence, findings: label.findings })),
              log: job.log === null ? null : { sizeBytes: job.log.sizeBytes.toString(), sha256: job.log.sha256 },
            })),
          })),
        ),
      };
    });

    app.get(
      '/v1/submissions/:id/logs/segments',
      { schema: { tags: ['submissions'], summary: "The failing jobs' logs reduced to a token budget: noise removed, windows around the evidence, most recent failures first (another token's submission is 404)" } },
      async (request) => {
        const { id } = parseInput(submissionParams, request.params, 'params');
        const query = parseInput(segmentQuery, request.query, 'query');
        await submissionWithReadableLogs(deps.repos, principalOf(request), id);
        const run = latestRun(await deps.repos.ci.runsOf(id));
        const logs: SegmentLogInput[] = [];
        if (run !== undefined) {
          const jobs = (await deps.repos.ci.jobsOfRun(run.id)).filter((job) => job.conclusion === 'failure' && job.log !== null);
          jobs.sort((a, b) => (b.completedAt?.getTime() ?? 0) - (a.completedAt?.getTime() ?? 0));
          for (const job of jobs) {
            const stream = await logStore.open(job.log!.storageKey);
            if (stream !== null) logs.push({ jobName: job.name, stream });
          }
        }
        const result = await segmentLogs({ logs, budgetTokens: query.budget, ...(query.context !== undefined ? { contextLines: query.context } : {}) });
        return { submissionId: id, budget: query.budget, ...result };
      },
    );

    app.get('/v1/instances/:id/logs/segments', { schema: { tags: ['instances'], summary: "The instance's stored failure logs reduced to a token budget (operators, or any token when the instance is public; 404 otherwise)" } }, async (request) => {
      const { id } = parseInput(instanceParams, request.params, 'params');
      const query = parseInput(segmentQuery, request.query, 'query');
      const instance = await deps.repos.instances.get(id);
      if (instance === null) throw notFound('instance', id);
      if (!canReadGroundTruth(principalOf(request), instance)) throw invalidInput('not_found', `instance ${id} has no stored logs you may read: they are operator-only unless the instance is public`, undefined, 404);
      const stored = Array.isArray(instance.logs) ? (instance.logs as { step_name?: string; log?: string }[]) : [];
      const logs = stored.filter((entry) => typeof entry.log === 'string').map((entry) => ({ jobName: entry.step_name ?? 'job', text: entry.log ?? '' }));
      const result = await segmentLogs({ logs: logs.reverse(), budgetTokens: query.budget, ...(query.context !== undefined ? { contextLines: query.context } : {}) });
      return { instanceId: id, budget: query.budget, ...result };
    });
  };
}
