import type { Prisma } from '../client.js';

export type BenchAccountState = 'active' | 'draining' | 'removed';

export interface BenchAccountRow {
  owner: string;
  installationId: bigint | null;
  concurrentJobs: number;
  restPerHour: number;
  writesPerMinute: number;
  runnerLabels: string[];
  state: string;
}

export interface BenchAccountInput {
  owner: string;
  installationId?: bigint | null;
  concurrentJobs: number;
  restPerHour?: number;
  writesPerMinute?: number;
  runnerLabels?: string[];
  state?: BenchAccountState;
}

export interface AssignmentRow {
  upstreamOwner: string;
  upstreamName: string;
  account: string;
  assignedAt: Date;
  movedAt: Date | null;
}

export interface BenchAccountRepository {
  list(): Promise<BenchAccountRow[]>;
  upsert(input: BenchAccountInput): Promise<BenchAccountRow>;
  setState(owner: string, state: BenchAccountState): Promise<BenchAccountRow | null>;
  /** Upstream repositories per account (the load used to place new benchmark repositories). */
  assignmentCounts(): Promise<Map<string, number>>;
  findAssignment(upstreamOwner: string, upstreamName: string): Promise<AssignmentRow | null>;
  /**
   * The account of an upstream: its recorded assignment, or a new one made with `choose` (given the accounts that
   * may take new work and their assignment counts) under a transaction-scoped advisory lock, so concurrent callers
   * agree. Stable: an existing assignment is returned even when its account is draining (moving it is `move`'s job).
   */
  assign(upstreamOwner: string, upstreamName: string, choose: (accounts: BenchAccountRow[], counts: Map<string, number>) => string | null): Promise<AssignmentRow | null>;
  /** Moves an upstream (or, with upstreamName null, every upstream of `from`) to another account. Returns how many moved. */
  move(target: { from: string; upstreamOwner?: string; upstreamName?: string }, to: string): Promise<number>;
}

const ASSIGN_LOCK = 4_219_190_001;

export function createBenchAccountRepository(prisma: Prisma): BenchAccountRepository {
  const counts = async (client: Pick<Prisma, 'accountAssignment'>): Promise<Map<string, number>> => {
    const grouped = await client.accountAssignment.groupBy({ by: ['account'], _count: { _all: true } });
    return new Map(grouped.map((row) => [row.account, row._count._all]));
  };
  return {
    list: () => prisma.benchAccount.findMany({ orderBy: { owner: 'asc' } }),
    upsert(input) {
      const data = {
        concurrentJobs: input.concurrentJobs,
        ...(input.installationId !== undefined ? { installationId: input.installationId } : {}),
        ...(input.restPerHour !== undefined ? { restPerHour: input.restPerHour } : {}),
        ...(input.writesPerMinute !== undefined ? { writesPerMinute: input.writesPerMinute } : {}),
        ...(input.runnerLabels !== undefined ? { runnerLabels: input.runnerLabels } : {}),
        ...(input.state !== undefined ? { state: input.state } : {}),
      };
      return prisma.benchAccount.upsert({ where: { owner: input.owner }, create: { owner: input.owner, ...data }, update: data });
    },
    async setState(owner, state) {
      const updated = await prisma.benchAccount.updateMany({ where: { owner }, data: { state } });
      return updated.count === 0 ? null : prisma.benchAccount.findUnique({ where: { owner } });
    },
    assignmentCounts: () => counts(prisma),
    findAssignment: (upstreamOwner, upstreamName) => prisma.accountAssignment.findUnique({ where: { upstreamOwner_upstreamName: { upstreamOwner, upstreamName } } }),
    async assign(upstreamOwner, upstreamName, choose) {
      const key = { upstreamOwner_upstreamName: { upstreamOwner, upstreamName } };
      const existing = await prisma.accountAssignment.findUnique({ where: key });
      if (existing !== null) return existing;
      return prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ASSIGN_LOCK}::bigint)`;
        const again = await tx.accountAssignment.findUnique({ where: key });
        if (again !== null) return again;
        const accounts = await tx.benchAccount.findMany({ where: { state: 'active' }, orderBy: { owner: 'asc' } });
        const account = choose(accounts, await counts(tx));
        if (account === null) return null;
        return tx.accountAssignment.create({ data: { upstreamOwner, upstreamName, account } });
      });
    },
    async move(target, to) {
      const where = {
        account: target.from,
        ...(target.upstreamOwner !== undefined ? { upstreamOwner: target.upstreamOwner } : {}),
        ...(target.upstreamName !== undefined ? { upstreamName: target.upstreamName } : {}),
      };
      const moved = await prisma.accountAssignment.updateMany({ where, data: { account: to, movedAt: new Date() } });
      return moved.count;
    },
  };
}
