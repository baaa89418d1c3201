import type { Prisma } from '../client.js';

export interface LifecycleChange {
  instanceId: string;
  from: string;
  to: string;
  reason: string;
  /** `revalidation`, `cli` or `operator:<token name>`. */
  actor: string;
  revalidationId?: string | null;
}

export interface TransitionRecord {
  id: string;
  instanceId: string;
  fromStatus: string;
  toStatus: string;
  reason: string;
  actor: string;
  revalidationId: string | null;
  createdAt: Date;
}

export interface InstanceHealthState {
  id: string;
  repoOwner: string;
  repoName: string;
  health: string;
  lifecycle: string;
  lifecycleReason: string | null;
  lifecycleChangedAt: Date | null;
  healthCheckedAt: Date | null;
}

/** One completed re-validation whose verdict differs from the instance's previous one. */
export interface VerdictChange {
  instanceId: string;
  revalidationId: string;
  previous: string | null;
  result: string;
  completedAt: Date;
}

export interface RepoFlakiness {
  repo: string;
  instances: number;
  checked: number;
  flaky: number;
  /** Mean share of disagreeing repeats over the repository's flaky instances (their last re-validation). */
  meanShare: number | null;
}

export interface InstanceHealthRepository {
  get(instanceId: string): Promise<InstanceHealthState | null>;
  /**
   * Moves the instance from `from` to `to` and records the transition, in one transaction; false (nothing written)
   * when the instance is no longer in `from` (another writer moved it).
   */
  move(change: LifecycleChange): Promise<boolean>;
  /** Sets the verdict of the last re-validation (health, healthCheckedAt). */
  setVerdict(instanceId: string, health: string): Promise<void>;
  lastTransition(instanceId: string): Promise<TransitionRecord | null>;
  history(instanceId: string, limit: number): Promise<TransitionRecord[]>;
  transitionsSince(since: Date, limit: number): Promise<TransitionRecord[]>;
  verdictChangesSince(since: Date, limit: number): Promise<VerdictChange[]>;
  countsBy(column: 'health' | 'lifecycle'): Promise<Record<string, number>>;
  /** Non-active instances with why, for reports and `ci-replay health`. */
  nonActive(limit: number): Promise<InstanceHealthState[]>;
  flakinessByRepo(): Promise<RepoFlakiness[]>;
  /** The instance checked longest ago (never checked first), and how many were never checked. */
  oldestCheck(): Promise<{ instance: InstanceHealthState | null; neverChecked: number }>;
}

const STATE_SELECT = {
  id: true,
  repoOwner: true,
  repoName: true,
  health: true,
  lifecycle: true,
  lifecycleReason: true,
  lifecycleChangedAt: true,
  healthCheckedAt: true,
} as const;

export function createInstanceHealthRepository(prisma: Prisma): InstanceHealthRepository {
  return {
    get: (instanceId) => prisma.instance.findUnique({ where: { id: instanceId }, select: STATE_SELECT }),
    async move(change) {
      return prisma.$transaction(async (tx) => {
        const moved = await tx.instance.updateMany({
          where: { id: change.instanceId, lifecycle: change.from },
          data: { lifecycle: change.to, lifecycleReason: change.reason, lifecycleChangedAt: new Date() },
        });
        if (moved.count !== 1) return false;
        await tx.instanceTransition.create({
          data: { instanceId: change.instanceId, fromStatus: change.from, toStatus: change.to, reason: change.reason, actor: change.actor, revalidationId: change.revalidationId ?? null },
        });
        return true;
      });
    },
    async setVerdict(instanceId, health) {
      await prisma.instance.updateMany({ where: { id: instanceId }, data: { health, healthCheckedAt: new Date() } });
    },
    lastTransition: (instanceId) => prisma.instanceTransition.findFirst({ where: { instanceId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] }),
    history: (instanceId, limit) => prisma.instanceTransition.findMany({ where: { instanceId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit }),
    transitionsSince: (since, limit) => prisma.instanceTransition.findMany({ where: { createdAt: { gte: since } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: limit }),
    verdictChangesSince: (since, limit) => prisma.$queryRaw<VerdictChange[]>`
      SELECT "instanceId", "id" AS "revalidationId", "previous", "result", "completedAt" FROM (
        SELECT r."instanceId", r."id", r."result", r."completedAt",
               LAG(r."result") OVER (PARTITION BY r."instanceId" ORDER BY r."completedAt", r."id") AS "previous"
        FROM "Revalidation" r WHERE r."status" = 'completed' AND r."result" IS NOT NULL AND r."result" <> 'inconclusive'
      ) judged
      WHERE "completedAt" >= ${since} AND "previous" IS DISTINCT FROM "result"
      ORDER BY "completedAt" DESC, "id" DESC LIMIT ${limit}`,
    async countsBy(column) {
      const rows = await prisma.instance.groupBy({ by: [column], _count: { _all: true } });
      return Object.fromEntries(rows.map((row) => [column === 'health' ? row.health : row.lifecycle, row._count._all]));
    },
    nonActive: (limit) => prisma.instance.findMany({ where: { lifecycle: { not: 'active' } }, select: STATE_SELECT, orderBy: [{ lifecycleChangedAt: 'desc' }, { id: 'asc' }], take: limit }),
    flakinessByRepo: () => prisma.$queryRaw<RepoFlakiness[]>`
      SELECT i."repoOwner" || '/' || i."repoName" AS "repo", COUNT(*)::int AS "instances",
             COUNT(*) FILTER (WHERE i."healthCheckedAt" IS NOT NULL)::int AS "checked",
             COUNT(*) FILTER (WHERE i."health" = 'flaky')::int AS "flaky",
             AVG(last."share") FILTER (WHERE i."health" = 'flaky')::float8 AS "meanShare"
      FROM "Instance" i
      LEFT JOIN LATERAL (
        SELECT (r."details"->>'flakyShare')::float8 AS "share" FROM "Revalidation" r
        WHERE r."instanceId" = i."id" AND r."status" = 'completed' ORDER BY r."completedAt" DESC LIMIT 1
      ) last ON TRUE
      GROUP BY 1 ORDER BY 4 DESC, 1`,
    async oldestCheck() {
      const [instance, neverChecked] = await Promise.all([
        prisma.instance.findFirst({ select: STATE_SELECT, orderBy: [{ healthCheckedAt: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }] }),
        prisma.instance.count({ where: { healthCheckedAt: null } }),
      ]);
      return { instance, neverChecked };
    },
  };
}
