import type { DbClient } from './client.js';
import { guardRepositories } from './guard-repositories.js';
import { createCiRecordRepository, type CiRecordRepository } from './repositories/ci-records.js';
import { createBenchRepoRepository, type BenchRepoRepository } from './repositories/bench-repos.js';
import { createDeliveryRepository, type DeliveryRepository } from './repositories/deliveries.js';
import { createInstanceRepository, type InstanceRepository } from './repositories/instances.js';
import { createRevalidationRepository, type RevalidationRepository } from './repositories/revalidations.js';
import { createInstanceHealthRepository, type InstanceHealthRepository } from './repositories/instance-health.js';
import { createRunRepository, type RunRepository } from './repositories/runs.js';
import { createSubmissionRepository, type SubmissionRepository } from './repositories/submissions.js';
import { createSubmissionBatchRepository, type SubmissionBatchRepository } from './repositories/submission-batches.js';
import { createTokenRepository, type TokenRepository } from './repositories/tokens.js';
import { createReportRepository, type ReportRepository } from './repositories/reports.js';
import { createTrackRepository, type TrackRepository } from './repositories/tracks.js';
import { createSweepRepository, type SweepRepository } from './repositories/sweep.js';
import { createDatasetPolicyRepository, type DatasetPolicyRepository } from './repositories/dataset-policies.js';
import { createTestEvidenceRepository, type TestEvidenceRepository } from './repositories/test-evidence.js';
import { createLeaseRepository, type LeaseRepository } from './repositories/leases.js';
import { createBenchAccountRepository, type BenchAccountRepository } from './repositories/bench-accounts.js';
import { createUiSessionRepository, type UiSessionRepository } from './repositories/ui-sessions.js';
import { createDashboardRepository, type DashboardRepository } from './repositories/dashboard.js';

export { createDb, type DbClient, type DbOptions } from './client.js';
export { ensureDatabase, migrate, migrationStatus, readMigrations, type MigrationStatus } from './migrator.js';
export type * from './types.js';
export type { InstanceInput, ImportOutcome, InstanceFilter, InstanceRepository } from './repositories/instances.js';
export type { NewSubmission, SubmissionFilter, SubmissionPatch, SubmissionRepository, SubmissionSummary } from './repositories/submissions.js';
export type { DeliveryRepository, NewDelivery } from './repositories/deliveries.js';
export type { BatchCommit, NewBatch, StoredBatch, SubmissionBatchRepository } from './repositories/submission-batches.js';
export type { RunRepository } from './repositories/runs.js';
export type { OpenRevalidation, RevalidationRepository } from './repositories/revalidations.js';
export type * from './repositories/instance-health.js';
export type { CiRecordRepository, JobWithSteps, NewFailureLabel } from './repositories/ci-records.js';
export type { BenchRepoRepository } from './repositories/bench-repos.js';
export type { TokenRepository } from './repositories/tokens.js';
export type * from './repositories/reports.js';
export type * from './repositories/tracks.js';
export type * from './repositories/sweep.js';
export type * from './repositories/dataset-policies.js';
export type * from './repositories/test-evidence.js';
export type { ExpiredLease, LeaseRepository } from './repositories/leases.js';
export type * from './repositories/bench-accounts.js';
export type * from './repositories/ui-sessions.js';
export type * from './repositories/dashboard.js';

export interface Repositories {
  instances: InstanceRepository;
  runs: RunRepository;
  submissions: SubmissionRepository;
  submissionBatches: SubmissionBatchRepository;
  tokens: TokenRepository;
  deliveries: DeliveryRepository;
  ci: CiRecordRepository;
  revalidations: RevalidationRepository;
  /** Instance lifecycle (active → suspect → quarantined), its history, and the health summary's queries. */
  instanceHealth: InstanceHealthRepository;
  benchRepos: BenchRepoRepository;
  reports: ReportRepository;
  tracks: TrackRepository;
  sweep: SweepRepository;
  datasetPolicies: DatasetPolicyRepository;
  testEvidence: TestEvidenceRepository;
  /** Who works on a submission until when (see README "Reliability"). */
  leases: LeaseRepository;
  /** The account pool and upstream → account assignments (docs/account-pool.md). */
  benchAccounts: BenchAccountRepository;
  /** Dashboard (/ui) sessions opened by a token login. */
  uiSessions: UiSessionRepository;
  /** The dashboard's read models. */
  dashboard: DashboardRepository;
}

/** The repositories, each method guarded: database failures reach callers typed (see guardRepositories, mapDbError). */
export function createRepositories(db: DbClient): Repositories {
  return guardRepositories({
    instances: createInstanceRepository(db.prisma),
    runs: createRunRepository(db.prisma),
    submissions: createSubmissionRepository(db.prisma, db.pool),
    submissionBatches: createSubmissionBatchRepository(db.prisma, db.pool),
    tokens: createTokenRepository(db.prisma),
    deliveries: createDeliveryRepository(db.prisma, db.pool),
    ci: createCiRecordRepository(db.prisma),
    revalidations: createRevalidationRepository(db.prisma),
    instanceHealth: createInstanceHealthRepository(db.prisma),
    benchRepos: createBenchRepoRepository(db.prisma),
    reports: createReportRepository(db.prisma),
    tracks: createTrackRepository(db.prisma),
    sweep: createSweepRepository(db.prisma),
    datasetPolicies: createDatasetPolicyRepository(db.prisma),
    testEvidence: createTestEvidenceRepository(db.prisma),
    leases: createLeaseRepository(db.prisma, db.pool),
    benchAccounts: createBenchAccountRepository(db.prisma),
    uiSessions: createUiSessionRepository(db.prisma),
    dashboard: createDashboardRepository(db.prisma),
  });
}

/** Pings the database (readiness). */
export async function pingDb(db: DbClient): Promise<void> {
  await db.pool.query('SELECT 1');
}
