import { randomUUID } from 'node:crypto';
import type { InstanceTestSet, Track, TrackRound } from '../generated/client.js';
import { conflict } from '../../errors.js';
import type { Prisma } from '../client.js';
import type { NewSubmission } from './submissions.js';

export type TrackRow = Track;
export type TrackRoundRow = TrackRound;
export type InstanceTestSetRow = InstanceTestSet;

/** A round with what its submission became. */
export interface TrackRoundState extends TrackRoundRow {
  state: string;
  verdict: string | null;
  /** Number of stored test results of the round's submission (0: no JUnit report). */
  testResults: number;
}

export interface NewTrack {
  instanceId: string;
  runId: string | null;
  maxRounds: number;
  p0: number | null;
  pStar: number | null;
  /** The API token that owns the track (its rounds inherit it); null or absent = operators only. */
  ownerTokenId?: string | null;
}

export interface NewTrackRound {
  trackId: string;
  roundNumber: number;
  patch: string;
  cumulativePatch: string;
  keptFromRound: number | null;
  /** The round's submission (its patch is the cumulative patch). */
  submission: NewSubmission;
}

export interface NewTestSet {
  instanceId: string;
  baseSubmissionId: string | null;
  oracleSubmissionId: string | null;
  basePassing: string[];
  gapTests: string[];
  p0: number;
  pStar: number;
}

export interface TrackRepository {
  create(input: NewTrack): Promise<TrackRow>;
  get(id: string): Promise<TrackRow | null>;
  /** Tracks of a run, oldest first. */
  listByRun(runId: string): Promise<TrackRow[]>;
  /** Rounds in order, with their submission's state, verdict and test-result count. */
  rounds(trackId: string): Promise<TrackRoundState[]>;
  /** Inserts the submission and the round in one transaction; returns the submission id. A taken round number fails (unique key). */
  addRound(input: NewTrackRound): Promise<string>;
  setCounts(id: string, counts: { p0: number; pStar: number }): Promise<void>;
  testSet(instanceId: string): Promise<InstanceTestSetRow | null>;
  saveTestSet(input: NewTestSet): Promise<InstanceTestSetRow>;
  /** The latest completed submission of `kind` on the instance that has stored test results. */
  latestWithResults(instanceId: string, kind: string): Promise<string | null>;
}

export function createTrackRepository(prisma: Prisma): TrackRepository {
  return {
    create: (input) => prisma.track.create({ data: input }),
    get: (id) => prisma.track.findUnique({ where: { id } }),
    listByRun: (runId) => prisma.track.findMany({ where: { runId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    async rounds(trackId) {
      const rows = await prisma.trackRound.findMany({
        where: { trackId },
        orderBy: { roundNumber: 'asc' },
        include: { submission: { select: { state: true, verdict: true, _count: { select: { testResults: true } } } } },
      });
      return rows.map(({ submission, ...round }) => ({ ...round, state: submission.state, verdict: submission.verdict, testResults: submission._count.testResults }));
    },
    async addRound(input) {
      const submissionId = randomUUID();
      await prisma
        .$transaction([
        prisma.submission.create({ data: { id: submissionId, ...input.submission, trackId: input.trackId, roundNumber: input.roundNumber } }),
        prisma.trackRound.create({
          data: {
            trackId: input.trackId,
            roundNumber: input.roundNumber,
            submissionId,
            patch: input.patch,
            cumulativePatch: input.cumulativePatch,
            keptFromRound: input.keptFromRound,
          },
        }),
        prisma.track.update({ where: { id: input.trackId }, data: { updatedAt: new Date() } }),
        ])
        .catch((error: unknown) => {
          if (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002') {
            throw conflict('round_taken', `round ${input.roundNumber} of track ${input.trackId} was submitted concurrently`);
          }
          throw error;
        });
      return submissionId;
    },
    async setCounts(id, counts) {
      await prisma.track.update({ where: { id }, data: counts });
    },
    testSet: (instanceId) => prisma.instanceTestSet.findUnique({ where: { instanceId } }),
    saveTestSet: ({ instanceId, ...data }) => prisma.instanceTestSet.upsert({ where: { instanceId }, create: { instanceId, ...data }, update: data }),
    async latestWithResults(instanceId, kind) {
      const row = await prisma.submission.findFirst({
        where: { instanceId, kind, state: 'completed', testResults: { some: {} } },
        orderBy: { createdAt: 'desc' },
        select: { id: true },
      });
      return row?.id ?? null;
    },
  };
}
