import type { Prisma } from '../client.js';

/** A run with its submission counts by state, as the dashboard lists it. */
export interface DashboardRun {
  id: string;
  label: string;
  createdAt: Date;
  ownerTokenId: string | null;
  byState: Record<string, number>;
}

/** One candidate submission of a run with its instance's repository and labels (no patch). */
export interface DashboardRunRow {
  submissionId: string;
  instanceId: string;
  repo: string;
  labels: string[];
  state: string;
  verdict: string | null;
  outcome: string | null;
  reason: string | null;
  observedLabels: string[];
  createdAt: Date;
  completedAt: Date | null;
}

/** Instances per repository and health status. */
export interface HealthCount {
  repo: string;
  health: string;
  instances: number;
}

/** A completed or running re-validation (no submission ids: those replays are operator-only). */
export interface HealthChange {
  id: string;
  instanceId: string;
  repo: string;
  status: string;
  result: string | null;
  health: string;
  details: unknown;
  startedAt: Date;
  completedAt: Date | null;
}

/** Read models of the dashboard (/ui): one query each. */
export interface DashboardRepository {
  /** The newest runs, only `ownerTokenId`'s when given (a submitter), with their counts by state. */
  runs(filter: { ownerTokenId?: string; limit: number }): Promise<DashboardRun[]>;
  /** The run's candidate submissions (not track rounds, not subtask runs), oldest first. */
  runRows(runId: string): Promise<DashboardRunRow[]>;
  healthCounts(): Promise<HealthCount[]>;
  /** The newest re-validations, newest first. */
  recentRevalidations(limit: number): Promise<HealthChange[]>;
}

export function createDashboardRepository(prisma: Prisma): DashboardRepository {
  return {
    async runs({ ownerTokenId, limit }) {
      const runs = await prisma.run.findMany({
        where: ownerTokenId === undefined ? {} : { ownerTokenId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: limit,
        select: { id: true, label: true, createdAt: true, ownerTokenId: true },
      });
      if (runs.length === 0) return [];
      const groups = await prisma.submission.groupBy({ by: ['runId', 'state'], where: { runId: { in: runs.map((run) => run.id) } }, _count: { _all: true } });
      const counts = new Map<string, Record<string, number>>();
      for (const group of groups) {
        if (group.runId === null) continue;
        const byState = counts.get(group.runId) ?? {};
        byState[group.state] = group._count._all;
        counts.set(group.runId, byState);
      }
      return runs.map((run) => ({ ...run, byState: counts.get(run.id) ?? {} }));
    },

    runRows: (runId) => prisma.$queryRaw<DashboardRunRow[]>`
      SELECT s."id" AS "submissionId", s."instanceId", i."repoOwner" || '/' || i."repoName" AS "repo", COALESCE(i."labels", '{}') AS "labels",
             s."state", s."verdict", s."outcome", s."reason", COALESCE(s."observedLabels", '{}') AS "observedLabels", s."createdAt", s."completedAt"
      FROM "Submission" s JOIN "Instance" i ON i."id" = s."instanceId"
      WHERE s."runId" = ${runId}::uuid AND s."kind" = 'candidate' AND s."trackId" IS NULL AND s."parentSubmissionId" IS NULL
      ORDER BY s."createdAt", s."id"`,

    healthCounts: () => prisma.$queryRaw<HealthCount[]>`
      SELECT "repoOwner" || '/' || "repoName" AS "repo", "health", COUNT(*)::int AS "instances" FROM "Instance"
      GROUP BY 1, 2 ORDER BY 1, 2`,

    recentRevalidations: (limit) => prisma.$queryRaw<HealthChange[]>`
      SELECT r."id", r."instanceId", i."repoOwner" || '/' || i."repoName" AS "repo", r."status", r."result", i."health", r."details", r."startedAt", r."completedAt"
      FROM "Revalidation" r JOIN "Instance" i ON i."id" = r."instanceId"
      ORDER BY COALESCE(r."completedAt", r."startedAt") DESC, r."id" DESC LIMIT ${limit}`,
  };
}
