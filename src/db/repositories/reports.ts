import type { Prisma } from '../client.js';

/** A run as reports name it. */
export interface ReportRun {
  id: string;
  label: string;
}

/** The columns of an instance a report needs. */
export interface ReportInstance {
  id: string;
  dataset: string;
  repoOwner: string;
  repoName: string;
  labels: string[];
  health: string;
  lifecycle: string;
  lifecycleReason: string | null;
}

/** The columns of a submission a report needs (no patch, no standardization record). */
export interface ReportSubmission {
  id: string;
  runId: string;
  instanceId: string;
  state: string;
  verdict: string | null;
  /** Submission.outcome (null on rows written before outcomes existed). */
  outcome: string | null;
  reason: string | null;
  observedLabels: string[];
  createdAt: Date;
}

/** An instance with SWE-sweep subtasks. */
export interface SweepInstance {
  id: string;
  subtasks: unknown;
  basePassingTests: string[];
}

/** A SWE-sweep submission: the visible-suite run (no subtask) or one subtask's run of a candidate. */
export interface SweepSubmission {
  id: string;
  runId: string;
  instanceId: string;
  state: string;
  parentSubmissionId: string | null;
  subtaskId: string | null;
  createdAt: Date;
}

/** One stored test outcome. */
export interface StoredTestOutcome {
  submissionId: string;
  testId: string;
  outcome: string;
}

export interface ReportRepository {
  /** The runs among `ids` that exist. */
  runs(ids: readonly string[]): Promise<ReportRun[]>;
  /**
   * The instances a report over these runs scores: every instance of the datasets the runs' submissions
   * touch (or of `dataset` when given), ordered by id. One query.
   */
  instancesForRuns(runIds: readonly string[], dataset?: string): Promise<ReportInstance[]>;
  /**
   * Candidate submissions of the runs (not track rounds, not SWE-sweep subtask runs), oldest first. One query.
   */
  submissionsForRuns(runIds: readonly string[]): Promise<ReportSubmission[]>;
  /** Instances of the runs' submissions that carry SWE-sweep subtasks. */
  sweepInstancesForRuns(runIds: readonly string[]): Promise<SweepInstance[]>;
  /** Candidate submissions of the runs on instances with subtasks, with their subtask runs. */
  sweepSubmissionsForRuns(runIds: readonly string[]): Promise<SweepSubmission[]>;
  /** Test outcomes of the submissions. */
  testResultsOf(submissionIds: readonly string[]): Promise<StoredTestOutcome[]>;
}

export function createReportRepository(prisma: Prisma): ReportRepository {
  return {
    async runs(ids) {
      if (ids.length === 0) return [];
      return prisma.run.findMany({ where: { id: { in: [...ids] } }, select: { id: true, label: true } });
    },

    async instancesForRuns(runIds, dataset) {
      if (dataset !== undefined) {
        return prisma.$queryRaw<ReportInstance[]>`
          SELECT "id", "dataset", "repoOwner", "repoName", COALESCE("labels", '{}') AS "labels", "health", "lifecycle", "lifecycleReason" FROM "Instance"
          WHERE "dataset" = ${dataset} ORDER BY "id"`;
      }
      return prisma.$queryRaw<ReportInstance[]>`
        SELECT "id", "dataset", "repoOwner", "repoName", COALESCE("labels", '{}') AS "labels", "health", "lifecycle", "lifecycleReason" FROM "Instance"
        WHERE "dataset" IN (
          SELECT DISTINCT i."dataset" FROM "Instance" i
          WHERE EXISTS (SELECT 1 FROM "Submission" s WHERE s."instanceId" = i."id" AND s."runId" = ANY(${[...runIds]}::uuid[]))
        )
        ORDER BY "id"`;
    },

    submissionsForRuns: (runIds) => prisma.$queryRaw<ReportSubmission[]>`
      SELECT "id", "runId", "instanceId", "state", "verdict", "outcome", "reason", COALESCE("observedLabels", '{}') AS "observedLabels", "createdAt" FROM "Submission"
      WHERE "runId" = ANY(${[...runIds]}::uuid[]) AND "kind" = 'candidate' AND "trackId" IS NULL AND "parentSubmissionId" IS NULL
      ORDER BY "createdAt", "id"`,

    sweepInstancesForRuns: (runIds) => prisma.$queryRaw<SweepInstance[]>`
      SELECT i."id", i."subtasks", COALESCE(i."basePassingTests", '{}') AS "basePassingTests" FROM "Instance" i
      WHERE i."subtasks" IS NOT NULL AND jsonb_typeof(i."subtasks") = 'array' AND jsonb_array_length(i."subtasks") > 0
        AND EXISTS (SELECT 1 FROM "Submission" s WHERE s."instanceId" = i."id" AND s."runId" = ANY(${[...runIds]}::uuid[]))
      ORDER BY i."id"`,

    sweepSubmissionsForRuns: (runIds) => prisma.$queryRaw<SweepSubmission[]>`
      SELECT s."id", s."runId", s."instanceId", s."state", s."parentSubmissionId", s."subtaskId", s."createdAt" FROM "Submission" s
      JOIN "Instance" i ON i."id" = s."instanceId"
      WHERE s."runId" = ANY(${[...runIds]}::uuid[]) AND s."kind" = 'candidate' AND s."trackId" IS NULL
        AND i."subtasks" IS NOT NULL AND jsonb_typeof(i."subtasks") = 'array'
      ORDER BY s."createdAt", s."id"`,

    async testResultsOf(submissionIds) {
      if (submissionIds.length === 0) return [];
      return prisma.$queryRaw<StoredTestOutcome[]>`
        SELECT "submissionId", "testId", "outcome" FROM "TestResult"
        WHERE "submissionId" = ANY(${[...submissionIds]}::uuid[]) ORDER BY "submissionId", "testId"`;
    },
  };
}
