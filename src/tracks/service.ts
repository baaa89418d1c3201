import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { InstanceRow, InstanceTestSetRow, Repositories, TrackRow } from '../db/index.js';
import { conflict, invalidInput, notFound } from '../errors.js';
import type { MirrorCache } from '../git/index.js';
import { validatePatch } from '../patches/validate-patch.js';
import { jobId, type Queues } from '../queue/index.js';
import { summarizeSweCiRun, swecTestSets, SWE_CI_ROUNDS, type SweCiRunSummary, type SweCiTaskInput, type TestOutcome } from '../scoring/index.js';
import { combinePatches } from './combine-patches.js';
import { roundValid, trackView, type TrackView } from './track-view.js';

export interface TrackServiceDeps {
  repos: Repositories;
  mirrors: MirrorCache;
  queues: Queues;
  logger: Logger;
  patchMaxBytes: number;
  /** Most rounds a track accepts (default 20, as SWE-CI). */
  maxRounds?: number;
}

export interface TrackService {
  /** Starts a track on an instance that has an oracle commit; `ownerTokenId` owns it and its rounds (null: operators only). */
  create(input: { instanceId: string; runId?: string; ownerTokenId?: string | null }): Promise<TrackView>;
  /** Submits the next round: `patch` applied on the previous kept round's code; the round's submission has the track's owner. */
  submitRound(trackId: string, patch: string): Promise<{ roundNumber: number; submissionId: string; keptFromRound: number | null; state: string }>;
  get(trackId: string, options?: { gamma?: number }): Promise<TrackView>;
  /**
   * SWE-CI per-run summary: each track of the run with p0/p* is a task (its finished rounds); the means of
   * EvoScore, solved and zero-regression over tasks, as SWE-CI reports them. Tracks without test sets are listed apart.
   */
  runSummary(runId: string, options?: { gamma?: number }): Promise<SweCiRunReport>;
  /**
   * Establishes (once) the instance's base and oracle test sets from its latest completed baseline and
   * reference submissions with test results, or from the submissions named; stores and returns them.
   */
  establishTestSets(instanceId: string, from?: { baseSubmissionId: string; oracleSubmissionId: string }): Promise<InstanceTestSetRow | null>;
}

/** The SWE-CI summary of a run. */
export interface SweCiRunReport extends SweCiRunSummary {
  runId: string;
  gamma: number;
  /** Track ids per task, in task order (tasks are named by instance id). */
  trackIds: string[];
  /** Tracks left out because their instance has no base/oracle test sets yet. */
  unscored: string[];
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export function createTrackService(deps: TrackServiceDeps): TrackService {
  const { repos } = deps;
  const maxRounds = deps.maxRounds ?? SWE_CI_ROUNDS;

  async function instanceOf(id: string): Promise<InstanceRow> {
    const instance = await repos.instances.get(id);
    if (instance === null) throw notFound('instance', id);
    return instance;
  }

  async function trackOf(id: string): Promise<TrackRow> {
    const track = await repos.tracks.get(id);
    if (track === null) throw notFound('track', id);
    return track;
  }

  async function resultsOf(submissionIds: string[]): Promise<Map<string, TestOutcome[]>> {
    const grouped = new Map<string, TestOutcome[]>();
    for (const row of await repos.reports.testResultsOf(submissionIds)) {
      const list = grouped.get(row.submissionId) ?? [];
      list.push({ testId: row.testId, outcome: row.outcome });
      grouped.set(row.submissionId, list);
    }
    return grouped;
  }

  const service: TrackService = {
    async create(input) {
      const instance = await instanceOf(input.instanceId);
      if (instance.oracleSha === null) throw invalidInput('no_oracle', `instance ${instance.id} has no oracle commit; a SWE-CI track needs one`, undefined, 422);
      if (input.runId !== undefined && (await repos.runs.get(input.runId)) === null) throw notFound('run', input.runId);
      const testSet = await service.establishTestSets(instance.id);
      const track = await repos.tracks.create({ instanceId: instance.id, runId: input.runId ?? null, maxRounds, p0: testSet?.p0 ?? null, pStar: testSet?.pStar ?? null, ownerTokenId: input.ownerTokenId ?? null });
      return trackView({ track, rounds: [], results: new Map(), testSet, gamma: 1 });
    },

    async submitRound(trackId, patch) {
      const track = await trackOf(trackId);
      validatePatch(patch, deps.patchMaxBytes);
      const rounds = await repos.tracks.rounds(trackId);
      if (rounds.length >= track.maxRounds) throw conflict('max_rounds', `track ${trackId} already has its ${track.maxRounds} rounds`);
      const last = rounds.at(-1);
      if (last !== undefined && !['completed', 'patch_failed', 'publish_failed', 'no_run', 'timed_out', 'cancelled', 'infra_error'].includes(last.state)) {
        throw conflict('round_pending', `round ${last.roundNumber} has not finished; submit the next round once it has`, { roundNumber: last.roundNumber, state: last.state });
      }
      const kept = [...rounds].reverse().find(roundValid);
      const instance = await instanceOf(track.instanceId);
      const combined = await combinePatches(deps, instance, kept?.cumulativePatch ?? '', patch);
      const cumulativePatch = combined.ok ? combined.patch : (kept?.cumulativePatch ?? '');
      const roundNumber = (last?.roundNumber ?? 0) + 1;
      const submissionId = await repos.tracks.addRound({
        trackId,
        roundNumber,
        patch,
        cumulativePatch,
        keptFromRound: kept?.roundNumber ?? null,
        submission: { instanceId: instance.id, runId: track.runId, kind: 'candidate', patch: cumulativePatch, patchSha256: sha256(cumulativePatch), idempotencyKey: null, requestHash: null, ownerTokenId: track.ownerTokenId },
      });
      if (!combined.ok) {
        await repos.submissions.transition(submissionId, ['queued'], 'patch_failed', { verdict: 'invalid', reason: 'patch_failed', errorMessage: combined.which === 'first' ? `the kept code no longer applies: ${combined.message}` : combined.message, completedAt: new Date() });
        return { roundNumber, submissionId, keptFromRound: kept?.roundNumber ?? null, state: 'patch_failed' };
      }
      try {
        await deps.queues.add('prepare', { submissionId }, { jobId: jobId('submission', submissionId) });
        await repos.submissions.markEnqueued([submissionId]);
      } catch (error) {
        deps.logger.warn({ err: error, submissionId }, 'enqueue failed; recovery sweep will retry');
      }
      return { roundNumber, submissionId, keptFromRound: kept?.roundNumber ?? null, state: 'queued' };
    },

    async get(trackId, options = {}) {
      const gamma = options.gamma ?? 1;
      let track = await trackOf(trackId);
      let testSet = await repos.tracks.testSet(track.instanceId);
      if (testSet === null) testSet = await service.establishTestSets(track.instanceId);
      if ((track.p0 === null || track.pStar === null) && testSet !== null) {
        await repos.tracks.setCounts(track.id, { p0: testSet.p0, pStar: testSet.pStar });
        track = { ...track, p0: testSet.p0, pStar: testSet.pStar };
      }
      const rounds = await repos.tracks.rounds(trackId);
      const results = await resultsOf(rounds.filter(roundValid).map((round) => round.submissionId));
      return trackView({ track, rounds, results, testSet, gamma });
    },

    async runSummary(runId, options = {}) {
      const gamma = options.gamma ?? 1;
      if ((await repos.runs.get(runId)) === null) throw notFound('run', runId);
      const tasks: SweCiTaskInput[] = [];
      const trackIds: string[] = [];
      const unscored: string[] = [];
      for (const track of await repos.tracks.listByRun(runId)) {
        const view = await service.get(track.id, { gamma });
        if (view.p0 === null || view.pStar === null) {
          unscored.push(track.id);
          continue;
        }
        const firstPending = view.rounds.findIndex((round) => round.status === 'pending');
        const finished = firstPending === -1 ? view.rounds : view.rounds.slice(0, firstPending);
        tasks.push({ taskId: view.instanceId, p0: view.p0, pStar: view.pStar, rounds: finished.map((round) => ({ passed: round.passed })) });
        trackIds.push(track.id);
      }
      return { runId, gamma, trackIds, unscored, ...summarizeSweCiRun(tasks, { gamma, n: maxRounds }) };
    },

    async establishTestSets(instanceId, from) {
      if (from === undefined) {
        const existing = await repos.tracks.testSet(instanceId);
        if (existing !== null) return existing;
      }
      const baseSubmissionId = from?.baseSubmissionId ?? (await repos.tracks.latestWithResults(instanceId, 'baseline'));
      const oracleSubmissionId = from?.oracleSubmissionId ?? (await repos.tracks.latestWithResults(instanceId, 'reference'));
      if (baseSubmissionId === null || oracleSubmissionId === null) return null;
      for (const id of [baseSubmissionId, oracleSubmissionId]) {
        const submission = await repos.submissions.getSummary(id);
        if (submission === null) throw notFound('submission', id);
        if (submission.instanceId !== instanceId) throw invalidInput('wrong_instance', `submission ${id} is not of instance ${instanceId}`, undefined, 422);
      }
      const results = await resultsOf([baseSubmissionId, oracleSubmissionId]);
      const baseResults = results.get(baseSubmissionId) ?? [];
      const oracleResults = results.get(oracleSubmissionId) ?? [];
      if (baseResults.length === 0 || oracleResults.length === 0) throw invalidInput('no_test_results', 'the base and oracle submissions need stored test results (JUnit)', undefined, 422);
      const sets = swecTestSets({ baseResults, oracleResults });
      return repos.tracks.saveTestSet({ instanceId, baseSubmissionId, oracleSubmissionId, basePassing: sets.basePassing, gapTests: sets.gapTests, p0: sets.p0, pStar: sets.pStar });
    },
  };
  return service;
}
