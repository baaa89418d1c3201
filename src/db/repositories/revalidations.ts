import type { Prisma } from '../client.js';
import type { RevalidationRow } from '../types.js';

export interface OpenRevalidation {
  repeats: number;
  /** `schedule` (the cron) or `operator` (API / CLI). */
  trigger: 'schedule' | 'operator';
  details: Record<string, unknown>;
}

export interface RevalidationRepository {
  /**
   * Opens a re-validation of the instance (status `running`, no replay yet: the scheduler creates them within the
   * budget). At most one is open per instance (a partial unique index): when one is, it is returned (`created: false`).
   */
  open(instanceId: string, input: OpenRevalidation): Promise<{ row: RevalidationRow; created: boolean }>;
  /** A running re-validation whose replays already exist (`details.repeats`: replays per side, default their half). */
  create(instanceId: string, submissionIds: string[], details: Record<string, unknown>): Promise<RevalidationRow>;
  get(id: string): Promise<RevalidationRow | null>;
  listRunning(limit: number): Promise<RevalidationRow[]>;
  listForInstance(instanceId: string, limit: number): Promise<RevalidationRow[]>;
  /** Records a replay of a running re-validation (idempotent: an id already recorded is not added twice). */
  addSubmission(id: string, submissionId: string): Promise<boolean>;
  /** Replays of running re-validations that have not reached a terminal state (the budget's use). */
  inFlight(): Promise<number>;
  complete(id: string, result: string, details: Record<string, unknown>): Promise<boolean>;
  /** Instances with a ground truth never checked, or last checked before `before`, that have no revalidation running. */
  dueInstances(before: Date, limit: number): Promise<string[]>;
  /**
   * Runs `work` holding the re-validation scheduler's lock (a Postgres advisory lock, released when `work` ends or
   * its connection dies), so two schedulers never hand out the same budget. `wait: false` returns null at once when
   * another holds it.
   */
  withSchedulerLock<T>(work: () => Promise<T>, options: { wait: boolean; timeoutMs?: number }): Promise<T | null>;
}

/** Key of the advisory lock of the re-validation scheduler (any constant unique in the project). */
const SCHEDULER_LOCK = 1_701_202_120;

const TERMINAL = ['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'];

export function createRevalidationRepository(prisma: Prisma): RevalidationRepository {
  const findOpen = (instanceId: string) => prisma.revalidation.findFirst({ where: { instanceId, status: { in: ['pending', 'running'] } }, orderBy: { startedAt: 'desc' } });
  return {
    async open(instanceId, input) {
      const existing = await findOpen(instanceId);
      if (existing !== null) return { row: existing, created: false };
      try {
        const row = await prisma.revalidation.create({
          data: { instanceId, submissionIds: [], repeats: input.repeats, trigger: input.trigger, details: input.details as object, status: 'running' },
        });
        return { row, created: true };
      } catch (error) {
        // Another scheduler opened one meanwhile (the partial unique index refused ours).
        const raced = await findOpen(instanceId);
        if (raced !== null) return { row: raced, created: false };
        throw error;
      }
    },
    create: (instanceId, submissionIds, details) =>
      prisma.revalidation.create({
        data: {
          instanceId,
          submissionIds,
          details: details as object,
          status: 'running',
          repeats: typeof details.repeats === 'number' ? details.repeats : Math.max(1, Math.ceil(submissionIds.length / 2)),
        },
      }),
    get: (id) => prisma.revalidation.findUnique({ where: { id } }),
    listRunning: (limit) => prisma.revalidation.findMany({ where: { status: 'running' }, orderBy: [{ startedAt: 'asc' }, { id: 'asc' }], take: limit }),
    listForInstance: (instanceId, limit) => prisma.revalidation.findMany({ where: { instanceId }, orderBy: { startedAt: 'desc' }, take: limit }),
    async addSubmission(id, submissionId) {
      const count = await prisma.$executeRaw`
        UPDATE "Revalidation" SET "submissionIds" = array_append("submissionIds", ${submissionId})
        WHERE "id" = ${id}::uuid AND "status" = 'running' AND NOT (${submissionId} = ANY("submissionIds"))`;
      return count === 1;
    },
    async inFlight() {
      const rows = await prisma.$queryRaw<{ count: number }[]>`
        SELECT COUNT(*)::int AS "count" FROM "Submission" s
        WHERE s."state" <> ALL(${TERMINAL}::text[])
          AND EXISTS (SELECT 1 FROM "Revalidation" r WHERE r."status" = 'running' AND s."id"::text = ANY(r."submissionIds"))`;
      return rows[0]?.count ?? 0;
    },
    async complete(id, result, details) {
      const updated = await prisma.revalidation.updateMany({ where: { id, status: 'running' }, data: { status: 'completed', result, details: details as object, completedAt: new Date() } });
      return updated.count === 1;
    },
    async dueInstances(before, limit) {
      const rows = await prisma.instance.findMany({
        where: {
          OR: [{ healthCheckedAt: null }, { healthCheckedAt: { lt: before } }],
          diff: { not: '' },
          revalidations: { none: { status: { in: ['pending', 'running'] } } },
        },
        orderBy: [{ healthCheckedAt: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }],
        take: limit,
        select: { id: true },
      });
      return rows.map((row) => row.id);
    },
    withSchedulerLock: (work, options) =>
      prisma.$transaction(
        async (tx) => {
          if (options.wait) await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SCHEDULER_LOCK}::bigint)`;
          else {
            const [row] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(${SCHEDULER_LOCK}::bigint) AS "locked"`;
            if (row?.locked !== true) return null;
          }
          return work();
        },
        { timeout: options.timeoutMs ?? 120_000, maxWait: options.timeoutMs ?? 120_000 },
      ),
  };
}
