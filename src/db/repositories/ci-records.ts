import type { CiStatus, StepOutcome, WorkflowJobEvent, WorkflowRunEvent } from '../../domain/ci-events.js';
import type { Prisma } from '../client.js';
import { Prisma as PrismaNamespace } from '../generated/client.js';
import type { FailureLabelRow, JobLogRow, JobRow, StepRow, WorkflowRunRow } from '../types.js';

/** The client an interactive transaction hands its callback. */
type Transaction = Parameters<Parameters<Prisma['$transaction']>[0]>[0];
/** Waiting for a pooled connection under load must not fail the event (Prisma's defaults: 2 s wait, 5 s run). */
const TRANSACTION_LIMITS = { maxWait: 30_000, timeout: 30_000 };

/** Status order: a recorded status only moves forward, so duplicate and out-of-order events are harmless. */
const RANK: Record<CiStatus, number> = { requested: 0, pending: 0, waiting: 1, queued: 1, in_progress: 2, completed: 3 };

/** Statuses a row may be in for an event with `status` to apply (in_progress may refresh in_progress: steps advance). */
function replaceable(status: CiStatus): CiStatus[] {
  const rank = RANK[status];
  return (Object.keys(RANK) as CiStatus[]).filter((other) => RANK[other] < rank || (status === 'in_progress' && other === 'in_progress'));
}

const date = (value: string | null): Date | null => (value === null ? null : new Date(value));

export interface JobWithSteps extends JobRow {
  steps: StepRow[];
  log: JobLogRow | null;
  failureLabels: FailureLabelRow[];
}

export interface NewFailureLabel {
  type: string;
  tool: string | null;
  stepName: string | null;
  evidence: unknown;
  findings: unknown;
}

export interface CiRecordRepository {
  /** Records a run event; returns the row and whether the event moved it (false: stale or duplicate). */
  applyRunEvent(submissionId: string, event: WorkflowRunEvent): Promise<{ run: WorkflowRunRow; applied: boolean }>;
  /** Records a job event (and its steps) under its run attempt, creating the run row when the job came first. */
  applyJobEvent(submissionId: string, event: WorkflowJobEvent): Promise<{ job: JobRow; applied: boolean }>;
  runsOf(submissionId: string): Promise<WorkflowRunRow[]>;
  jobsOfRun(workflowRunId: string): Promise<JobWithSteps[]>;
  getJob(id: string): Promise<(JobRow & { workflowRun: WorkflowRunRow; steps: StepRow[] }) | null>;
  saveJobLog(jobId: string, log: { storageKey: string; sizeBytes: number; sha256: string }): Promise<void>;
  saveFailureLabels(submissionId: string, jobId: string, labels: NewFailureLabel[]): Promise<void>;
  labelsOf(submissionId: string): Promise<FailureLabelRow[]>;
  saveTestResults(submissionId: string, results: { testId: string; outcome: string; durationMs: number | null; message: string | null }[]): Promise<void>;
  /** Records a job's judged outcome (passed, failed, infra_error, cancelled, timed_out, skipped), reason and evidence. */
  saveJobOutcome(jobId: string, judged: { outcome: string; reason: string | null; evidence: object | null }): Promise<void>;
  /** Records a run attempt's judged outcome and reason. */
  saveRunOutcome(workflowRunId: string, judged: { outcome: string; reason: string | null }): Promise<void>;
  /**
   * Ends a run attempt nobody will finish (its worker died, or it was cancelled while nobody ran it): the attempt and
   * every job of it not yet completed become completed with `conclusion` and the given outcome. Returns whether the
   * attempt was still open.
   */
  closeRun(workflowRunId: string, end: { conclusion: 'cancelled'; outcome: string; reason: string }): Promise<boolean>;
}

export function createCiRecordRepository(prisma: Prisma): CiRecordRepository {
  async function ensureRun(submissionId: string, event: WorkflowRunEvent | WorkflowJobEvent): Promise<WorkflowRunRow> {
    const key = { githubRunId: BigInt(event.runId), runAttempt: event.runAttempt };
    const existing = await prisma.workflowRun.findUnique({ where: { githubRunId_runAttempt: key } });
    if (existing !== null) return existing;
    await prisma.workflowRun.createMany({
      data: [{ ...key, submissionId, repoFullName: event.repoFullName, headSha: event.headSha, headBranch: event.headBranch, status: 'queued' }],
      skipDuplicates: true,
    });
    return prisma.workflowRun.findUniqueOrThrow({ where: { githubRunId_runAttempt: key } });
  }

  /** Replaces a job's steps; inside the transaction that updated the job, so readers never see one without the other. */
  async function writeSteps(tx: Transaction, jobId: string, steps: StepOutcome[]): Promise<void> {
    await tx.step.deleteMany({ where: { jobId } });
    await tx.step.createMany({
      data: steps.map((step) => ({
        jobId,
        number: step.number,
        name: step.name,
        status: step.status,
        conclusion: step.conclusion,
        startedAt: date(step.startedAt),
        completedAt: date(step.completedAt),
      })),
      skipDuplicates: true,
    });
  }

  return {
    async applyRunEvent(submissionId, event) {
      const row = await ensureRun(submissionId, event);
      const result = await prisma.workflowRun.updateMany({
        where: { id: row.id, status: { in: replaceable(event.status) } },
        data: {
          status: event.status,
          conclusion: event.conclusion,
          name: event.name,
          path: event.path,
          event: event.event,
          htmlUrl: event.htmlUrl,
          headBranch: event.headBranch,
          runStartedAt: date(event.runStartedAt),
          ...(event.status === 'completed' ? { completedAt: date(event.updatedAt) ?? new Date() } : {}),
        },
      });
      const run = await prisma.workflowRun.findUniqueOrThrow({ where: { id: row.id } });
      return { run, applied: result.count === 1 };
    },

    async applyJobEvent(submissionId, event) {
      const run = await ensureRun(submissionId, event);
      const githubJobId = BigInt(event.jobId);
      const data = {
        name: event.name,
        status: event.status,
        conclusion: event.conclusion,
        startedAt: date(event.startedAt),
        completedAt: date(event.completedAt),
        runnerName: event.runnerName,
        labels: event.labels,
        htmlUrl: event.htmlUrl,
        failedStep: event.steps.find((step) => step.conclusion === 'failure')?.name ?? null,
      };
      // One transaction: a reader (the logs worker, finalize) must never see the job completed with its old steps,
      // or it would classify the log without knowing which step failed.
      return prisma.$transaction(async (tx) => {
        const created = await tx.job.createMany({ data: [{ ...data, workflowRunId: run.id, githubJobId }], skipDuplicates: true });
        let applied = created.count === 1;
        if (!applied) {
          const updated = await tx.job.updateMany({ where: { githubJobId, status: { in: replaceable(event.status) } }, data });
          applied = updated.count === 1;
        }
        const job = await tx.job.findUniqueOrThrow({ where: { githubJobId } });
        if (applied && event.steps.length > 0) await writeSteps(tx, job.id, event.steps);
        return { job, applied };
      }, TRANSACTION_LIMITS);
    },

    runsOf: (submissionId) => prisma.workflowRun.findMany({ where: { submissionId }, orderBy: [{ githubRunId: 'asc' }, { runAttempt: 'asc' }] }),
    jobsOfRun: (workflowRunId) =>
      prisma.job.findMany({
        where: { workflowRunId },
        include: { steps: { orderBy: { number: 'asc' } }, log: true, failureLabels: true },
        orderBy: [{ startedAt: 'asc' }, { githubJobId: 'asc' }],
      }),
    getJob: (id) => prisma.job.findUnique({ where: { id }, include: { workflowRun: true, steps: { orderBy: { number: 'asc' } } } }),
    async saveJobLog(jobId, log) {
      await prisma.jobLog.createMany({ data: [{ jobId, storageKey: log.storageKey, sizeBytes: BigInt(log.sizeBytes), sha256: log.sha256 }], skipDuplicates: true });
    },
    async saveFailureLabels(submissionId, jobId, labels) {
      if (labels.length === 0) return;
      await prisma.failureLabel.createMany({
        data: labels.map((label) => ({ submissionId, jobId, type: label.type, tool: label.tool, stepName: label.stepName, evidence: label.evidence as object, findings: label.findings as object })),
        skipDuplicates: true,
      });
    },
    labelsOf: (submissionId) => prisma.failureLabel.findMany({ where: { submissionId }, orderBy: { createdAt: 'asc' } }),
    async saveTestResults(submissionId, results) {
      if (results.length === 0) return;
      await prisma.testResult.createMany({ data: results.map((result) => ({ submissionId, ...result })), skipDuplicates: true });
    },
    async saveJobOutcome(jobId, judged) {
      await prisma.job.update({ where: { id: jobId }, data: { outcome: judged.outcome, outcomeReason: judged.reason, outcomeEvidence: judged.evidence ?? PrismaNamespace.DbNull } });
    },
    async saveRunOutcome(workflowRunId, judged) {
      await prisma.workflowRun.update({ where: { id: workflowRunId }, data: { outcome: judged.outcome, outcomeReason: judged.reason } });
    },
    async closeRun(workflowRunId, end) {
      const completedAt = new Date();
      return prisma.$transaction(async (tx) => {
        await tx.job.updateMany({
          where: { workflowRunId, status: { not: 'completed' } },
          data: { status: 'completed', conclusion: end.conclusion, outcome: end.outcome, outcomeReason: end.reason, completedAt },
        });
        const closed = await tx.workflowRun.updateMany({
          where: { id: workflowRunId, status: { not: 'completed' } },
          data: { status: 'completed', conclusion: end.conclusion, outcome: end.outcome, outcomeReason: end.reason, completedAt },
        });
        return closed.count === 1;
      }, TRANSACTION_LIMITS);
    },
  };
}
