import { describe, it, expect } from 'vitest';
import {
  bugResolved,
  gradeSweepTrial,
  regressionGate,
  sweepScore,
  sweepSummaryJson,
  sweepTaskScore,
} from '../../../src/scoring/swe-sweep/index.js';

const VECTOR = [
  { task: 'alpha', bugs: 10, resolved: 4, regressed: false },
  { task: 'beta', bugs: 5, resolved: 5, regressed: true },
  { task: 'gamma', bugs: 20, resolved: 2, regressed: false },
];

describe('SWE-sweep score', () => {
  it('reproduces the published vector', () => {
    const score = sweepScore(VECTOR);
    expect(score.score).toBe(6 / 35);
    expect(score.score.toFixed(6)).toBe('0.171429');
    expect(score.scoreIgnoringRegressions).toBe(11 / 35);
    expect(score).toMatchObject({ gradedTasks: 3, gradedBugs: 35, resolvedBugs: 6, resolvedIgnoringRegressions: 11 });
  });

  it('leaves evaluation failures out of both sides and counts them', () => {
    const score = sweepScore([...VECTOR, { task: 'delta', evaluationFailed: true }]);
    expect(score.score).toBe(6 / 35);
    expect(score.evaluationFailures).toBe(1);
  });

  it('zeroes a regressed task', () => {
    expect(sweepTaskScore({ task: 'x', bugs: 5, resolved: 5, regressed: true })).toBe(0);
    expect(sweepTaskScore({ task: 'x', bugs: 10, resolved: 4, regressed: false })).toBe(0.4);
  });

  it('emits the sweep info --json shape', () => {
    const json = sweepSummaryJson([...VECTOR, { task: 'delta', evaluationFailed: true }]);
    expect(json).toEqual({
      summary: {
        graded_tasks: 3,
        graded_bugs: 35,
        resolved_bugs: 6,
        score: 6 / 35,
        score_ignoring_regressions: 11 / 35,
        evaluation_failures: 1,
      },
      tasks: [
        { task: 'alpha', trials: 1, n_subtasks: 10, n_resolved: 4, regressed: false, reward: 0.4 },
        { task: 'beta', trials: 1, n_subtasks: 5, n_resolved: 5, regressed: true, reward: 0 },
        { task: 'gamma', trials: 1, n_subtasks: 20, n_resolved: 2, regressed: false, reward: 0.1 },
        { task: 'delta', trials: 0, n_subtasks: 0, n_resolved: 0, regressed: false, reward: 0 },
      ],
    });
    expect(Object.keys(json.summary)).toEqual([
      'graded_tasks',
      'graded_bugs',
      'resolved_bugs',
      'score',
      'score_ignoring_regressions',
      'evaluation_failures',
    ]);
  });
});

describe('regression gate', () => {
  const base = ['a', 'b', 'c', 'd', 'e'];
  it('flags failed, error, skipped and missing base-passing tests', () => {
    const gate = regressionGate(base, [
      { testId: 'a', outcome: 'passed' },
      { testId: 'b', outcome: 'failed' },
      { testId: 'c', outcome: 'error' },
      { testId: 'd', outcome: 'skipped' },
      { testId: 'z', outcome: 'failed' },
    ]);
    expect(gate.passed).toBe(false);
    expect(gate.regressions).toEqual([
      { testId: 'b', kind: 'failed' },
      { testId: 'c', kind: 'error' },
      { testId: 'd', kind: 'skipped' },
      { testId: 'e', kind: 'missing' },
    ]);
  });

  it('passes when every base-passing test passes, and fails on a timeout', () => {
    const results = base.map((testId) => ({ testId, outcome: 'passed' }));
    expect(regressionGate(base, [...results, { testId: 'new', outcome: 'failed' }]).passed).toBe(true);
    expect(regressionGate(base, results, { timedOut: true })).toEqual({ passed: false, timedOut: true, regressions: [] });
  });
});

describe('bugResolved', () => {
  it('needs no failure or error and at least one pass among targeted tests', () => {
    expect(bugResolved(['t1', 't2'], [{ testId: 't1', outcome: 'passed' }, { testId: 't2', outcome: 'skipped' }])).toBe(true);
    expect(bugResolved(['t1', 't2'], [{ testId: 't1', outcome: 'passed' }, { testId: 't2', outcome: 'error' }])).toBe(false);
    expect(bugResolved(['t1'], [{ testId: 't1', outcome: 'skipped' }])).toBe(false);
    expect(bugResolved(['t1'], [{ testId: 't1', outcome: 'passed' }, { testId: 'other', outcome: 'failed' }])).toBe(true);
  });

  it('grades a trial end to end', () => {
    const trial = gradeSweepTrial({
      task: 'alpha',
      basePassing: ['a'],
      visibleResults: [{ testId: 'a', outcome: 'passed' }],
      bugs: [
        { id: 'b1', targetedTests: ['x'], results: [{ testId: 'x', outcome: 'passed' }] },
        { id: 'b2', targetedTests: ['y'], results: [{ testId: 'y', outcome: 'failed' }] },
      ],
    });
    expect(trial).toEqual({ task: 'alpha', bugs: 2, resolved: 1, regressed: false });
  });
});
