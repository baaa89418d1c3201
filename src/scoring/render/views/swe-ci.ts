import type { SweCiRunSummary } from '../../swe-ci/task-score.js';
import { decimal, percent } from '../format.js';
import type { TableModel } from '../table-model.js';

/** Decimals of EvoScores and normalized changes (both lie in [−1, 1]). */
const SCORE_DIGITS = 3;

const score = (value: number | null): string => decimal(value, SCORE_DIGITS);
const yesNo = (value: boolean): string => (value ? 'yes' : 'no');
const count = (value: number | null): string => (value === null ? '–' : String(value));
const rate = (value: number | null): string => (value === null ? '–' : `${percent(value * 100)}%`);

/** A run's SWE-CI summary as the tracks service gives it (tasks are named by instance id). */
export interface SweCiRunTableInput extends SweCiRunSummary {
  runId: string;
  gamma: number;
  /** Track id per task, in task order. */
  trackIds: readonly string[];
  /** Tracks left out for want of base/oracle test sets. */
  unscored: readonly string[];
}

/** One track as the tracks service shows it: its rounds and, with p0/p*, its scores. */
export interface SweCiTrackTableInput {
  id: string;
  instanceId: string;
  maxRounds: number;
  p0: number | null;
  pStar: number | null;
  rounds: readonly {
    roundNumber: number;
    submissionId: string;
    state: string;
    status: string;
    keptFromRound: number | null;
    passed: number | null;
    normalizedChange: number | null;
  }[];
  score: { gamma: number; evoScore: number; solved: boolean; zeroRegression: boolean; rounds: number; invalidRounds: number } | null;
}

/** One line per task (track) of a run, then a line with the means over tasks, as SWE-CI reports them. */
export function sweCiRunTable(summary: SweCiRunTableInput): TableModel {
  const notes = [`Final: the count of the last finished round, clipped to [0, p*] (invalid rounds count 0); change: its normalized change.`];
  if (summary.unscored.length > 0) notes.push(`Not scored, no base/oracle test sets yet (${summary.unscored.length}): ${summary.unscored.join(', ')}`);
  return {
    title: `SWE-CI run ${summary.runId}: ${summary.tasks.length} tasks, EvoScore at γ = ${summary.gamma}`,
    columns: [
      { header: 'Instance', align: 'left' },
      { header: 'Track', align: 'left' },
      { header: 'Rounds', align: 'right' },
      { header: 'Invalid', align: 'right' },
      { header: 'p0', align: 'right' },
      { header: 'Final', align: 'right' },
      { header: 'p*', align: 'right' },
      { header: 'Change', align: 'right' },
      { header: 'EvoScore', align: 'right' },
      { header: 'Solved', align: 'right' },
      { header: 'Zero-regression', align: 'right' },
    ],
    rows: [
      ...summary.tasks.map((task, index) => [
        task.taskId,
        summary.trackIds[index] ?? '',
        String(task.rounds),
        String(task.invalidRounds),
        String(task.p0),
        count(task.finalPassed),
        String(task.pStar),
        score(task.finalChange),
        score(task.evoScore),
        yesNo(task.solved),
        yesNo(task.zeroRegression),
      ]),
      [`Mean (${summary.tasks.length} tasks)`, '', '', '', '', '', '', '', score(summary.meanEvoScore), rate(summary.solvedRate), rate(summary.zeroRegressionRate)],
    ],
    notes,
  };
}

/** One line per round of a track; the track's scores go in the notes (text and markdown). */
export function sweCiTrackTable(track: SweCiTrackTableInput): TableModel {
  const { score: scores } = track;
  const notes =
    scores === null
      ? ['Not scored: the instance has no base/oracle test sets yet.']
      : [
          `EvoScore at γ = ${scores.gamma}: ${score(scores.evoScore)} over ${scores.rounds} of ${track.maxRounds} rounds (${scores.invalidRounds} invalid); solved: ${yesNo(scores.solved)}; zero-regression: ${yesNo(scores.zeroRegression)}`,
        ];
  return {
    title: `SWE-CI track ${track.id} (${track.instanceId}): p0 ${count(track.p0)}, p* ${count(track.pStar)}`,
    columns: [
      { header: 'Round', align: 'right' },
      { header: 'Submission', align: 'left' },
      { header: 'State', align: 'left' },
      { header: 'Status', align: 'left' },
      { header: 'Kept from', align: 'right' },
      { header: 'Passed', align: 'right' },
      { header: 'Change', align: 'right' },
    ],
    rows: track.rounds.map((round) => [
      String(round.roundNumber),
      round.submissionId,
      round.state,
      round.status,
      round.keptFromRound === null ? 'base' : String(round.keptFromRound),
      count(round.passed),
      score(round.normalizedChange),
    ]),
    notes,
  };
}
