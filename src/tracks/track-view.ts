import type { InstanceTestSetRow, TrackRoundState, TrackRow } from '../db/index.js';
import { isTerminal, type SubmissionState } from '../domain/states.js';
import { clipCount, normalizedChange, passingTestIds, scoreSweCiTask, type SweCiRound, type TestOutcome } from '../scoring/index.js';

/** A round as the API shows it. */
export interface TrackRoundView {
  roundNumber: number;
  submissionId: string;
  state: string;
  verdict: string | null;
  /** The round whose code this one was applied on (null: the base commit). */
  keptFromRound: number | null;
  /** pending: not finished; valid: finished with a test report (its code is kept); invalid: counts as 0 passed. */
  status: 'pending' | 'valid' | 'invalid';
  /** Tests passed (outcome `passed` only); null while pending or when invalid. */
  passed: number | null;
  /** Normalized change of the clipped count (invalid rounds count 0 passed); null while pending or without p0/p*. */
  normalizedChange: number | null;
}

/** A track with its rounds and SWE-CI scores. */
export interface TrackView {
  id: string;
  instanceId: string;
  runId: string | null;
  maxRounds: number;
  status: string;
  createdAt: string;
  p0: number | null;
  pStar: number | null;
  testSet: { baseSubmissionId: string | null; oracleSubmissionId: string | null } | null;
  rounds: TrackRoundView[];
  /** Scores over the finished rounds (the sequence stops at the first pending round); null without p0/p*. */
  score: { gamma: number; evoScore: number; solved: boolean; zeroRegression: boolean; rounds: number; invalidRounds: number } | null;
}

/** Whether a finished round is valid: it completed and left a test report. Its code is then kept. */
export const roundValid = (round: Pick<TrackRoundState, 'state' | 'testResults'>): boolean => round.state === 'completed' && round.testResults > 0;

/** Builds the view of a track from its rows and its rounds' test outcomes (pure). */
export function trackView(input: {
  track: TrackRow;
  rounds: readonly TrackRoundState[];
  results: ReadonlyMap<string, readonly TestOutcome[]>;
  testSet: InstanceTestSetRow | null;
  gamma: number;
}): TrackView {
  const { track, testSet } = input;
  const p0 = track.p0 ?? testSet?.p0 ?? null;
  const pStar = track.pStar ?? testSet?.pStar ?? null;
  const rounds = input.rounds.map((round): TrackRoundView => {
    const finished = isTerminal(round.state as SubmissionState);
    const status = !finished ? 'pending' : roundValid(round) ? 'valid' : 'invalid';
    const passed = status === 'valid' ? passingTestIds(input.results.get(round.submissionId) ?? []).size : null;
    const counted = status === 'pending' ? null : (passed ?? 0);
    return {
      roundNumber: round.roundNumber,
      submissionId: round.submissionId,
      state: round.state,
      verdict: round.verdict,
      keptFromRound: round.keptFromRound,
      status,
      passed,
      normalizedChange: counted === null || p0 === null || pStar === null ? null : normalizedChange(clipCount(counted, pStar), p0, pStar),
    };
  });
  const firstPending = rounds.findIndex((round) => round.status === 'pending');
  const finished = firstPending === -1 ? rounds : rounds.slice(0, firstPending);
  const sequence: SweCiRound[] = finished.map((round) => ({ passed: round.passed }));
  const task = p0 === null || pStar === null ? null : scoreSweCiTask({ taskId: track.id, p0, pStar, rounds: sequence }, { gamma: input.gamma, n: track.maxRounds });
  return {
    id: track.id,
    instanceId: track.instanceId,
    runId: track.runId,
    maxRounds: track.maxRounds,
    status: track.status,
    createdAt: track.createdAt.toISOString(),
    p0,
    pStar,
    testSet: testSet === null ? null : { baseSubmissionId: testSet.baseSubmissionId, oracleSubmissionId: testSet.oracleSubmissionId },
    rounds,
    score:
      task === null
        ? null
        : { gamma: input.gamma, evoScore: task.evoScore, solved: task.solved, zeroRegression: task.zeroRegression, rounds: task.rounds, invalidRounds: task.invalidRounds },
  };
}
