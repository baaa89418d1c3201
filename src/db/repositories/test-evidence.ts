import type { Prisma } from '../client.js';

/** One stored test outcome (passed, failed, error, skipped or xfailed). */
export interface TestOutcomeRow {
  testId: string;
  outcome: string;
}

/** What the tests-not-run check reads: the instance's reference runs and per-test outcomes. */
export interface TestEvidenceRepository {
  /** The latest completed `reference` submission of the instance (with stored test results when `withResults`). */
  latestReference(instanceId: string, options: { withResults: boolean }): Promise<{ id: string } | null>;
  /** A submission's stored test outcomes, by test id. */
  outcomesOf(submissionId: string): Promise<TestOutcomeRow[]>;
}

export function createTestEvidenceRepository(prisma: Prisma): TestEvidenceRepository {
  return {
    latestReference: (instanceId, options) =>
      prisma.submission.findFirst({
        where: { instanceId, kind: 'reference', state: 'completed', ...(options.withResults ? { testResults: { some: {} } } : {}) },
        orderBy: [{ completedAt: { sort: 'desc', nulls: 'last' } }, { createdAt: 'desc' }],
        select: { id: true },
      }),
    outcomesOf: (submissionId) => prisma.testResult.findMany({ where: { submissionId }, select: { testId: true, outcome: true }, orderBy: { testId: 'asc' } }),
  };
}
