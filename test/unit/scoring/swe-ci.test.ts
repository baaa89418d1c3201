import { describe, it, expect } from 'vitest';
import {
  evoScore,
  normalizedChange,
  scoreSweCiTask,
  solved,
  summarizeSweCiRun,
  swecTestSets,
  zeroRegression,
} from '../../../src/scoring/swe-ci/index.js';

// (p0, p*, rounds) → EvoScore γ=1, solved, zero-regression, as published.
const VECTORS: [number, number, number[], number, boolean, boolean][] = [
  [10, 20, [15], 0.5, false, true],
  [10, 20, [5], -0.5, false, false],
  [10, 20, [0], -1.0, false, false],
  [10, 20, [25], 1.0, true, true],
  [10, 20, [12, 15, 9, 20], 0.88, true, false],
  [10, 20, [11, 13, 13], 0.29, false, true],
  [10, 22, [20], 5 / 6, false, true],
];

describe('SWE-CI test vectors', () => {
  it.each(VECTORS)('(%d, %d, %j) → %d', (p0, pStar, rounds, score, isSolved, noRegression) => {
    expect(evoScore(rounds, p0, pStar)).toBe(score);
    expect(solved(rounds, p0, pStar)).toBe(isSolved);
    expect(zeroRegression(rounds, p0, pStar)).toBe(noRegression);
  });

  it('weights rounds with gamma', () => {
    expect(evoScore([12, 15, 9, 20], 10, 20, { gamma: 1.2 }).toFixed(6)).toBe('0.984016');
    expect(evoScore([12, 15, 9, 20], 10, 20, { gamma: 0.8 }).toFixed(6)).toBe('0.614758');
  });
});

describe('normalizedChange', () => {
  it('normalizes up by the gap and down by p0', () => {
    expect(normalizedChange(15, 10, 20)).toBe(0.5);
    expect(normalizedChange(5, 10, 20)).toBe(-0.5);
    expect(normalizedChange(10, 10, 20)).toBe(0);
  });
});

describe('rounds', () => {
  it('pads with p0 without rounds and counts invalid rounds as 0 passed', () => {
    expect(evoScore([], 10, 20)).toBe(0);
    expect(zeroRegression([], 10, 20)).toBe(true);
    expect(evoScore([{ passed: 15 }, { passed: null }], 10, 20)).toBe(-0.925);
    expect(evoScore([15, null], 10, 20)).toBe(-0.925);
    const task = scoreSweCiTask({ taskId: 't', p0: 10, pStar: 20, rounds: [{ passed: 15 }, { passed: null }, 20] });
    expect(task).toMatchObject({ rounds: 3, invalidRounds: 1, solved: true, zeroRegression: false });
    expect(task.evoScore).toBe((0.5 - 1 + 18) / 20);
    expect(task).toMatchObject({ finalPassed: 20, finalChange: 1 });
    expect(scoreSweCiTask({ taskId: 't', p0: 10, pStar: 20, rounds: [15, null] })).toMatchObject({ finalPassed: 0, finalChange: -1 });
    expect(scoreSweCiTask({ taskId: 't', p0: 10, pStar: 20, rounds: [25, 12] }, { n: 1 })).toMatchObject({ finalPassed: 20, finalChange: 1 });
    expect(scoreSweCiTask({ taskId: 't', p0: 10, pStar: 20, rounds: [] })).toMatchObject({ finalPassed: null, finalChange: null });
  });

  it('honours n and ignores rounds beyond it', () => {
    expect(evoScore([20, 0], 10, 20, { n: 1 })).toBe(1);
    expect(evoScore([15, 20], 10, 20, { n: 4 })).toBe(0.875);
  });

  it('handles a zero gap and p0 = 0 without dividing by zero', () => {
    expect(evoScore([10], 10, 10)).toBe(0);
    expect(solved([], 10, 10)).toBe(true);
    expect(evoScore([5], 0, 10)).toBe(0.5);
  });

  it('rejects inconsistent counts', () => {
    expect(() => evoScore([1], 10, 5)).toThrow(/p0/);
    expect(() => evoScore([1], 1, 5, { gamma: 0 })).toThrow(/gamma/);
  });
});

describe('summarizeSweCiRun', () => {
  it('takes means over tasks', () => {
    const summary = summarizeSweCiRun([
      { taskId: 'a', p0: 10, pStar: 20, rounds: [15] },
      { taskId: 'b', p0: 10, pStar: 20, rounds: [25] },
      { taskId: 'c', p0: 10, pStar: 20, rounds: [5] },
    ]);
    expect(summary.meanEvoScore).toBe(1 / 3);
    expect(summary.solvedRate).toBe(1 / 3);
    expect(summary.zeroRegressionRate).toBe(2 / 3);
    expect(summarizeSweCiRun([]).meanEvoScore).toBeNull();
  });
});

describe('swecTestSets', () => {
  it('counts only outcome passed and derives p* from the oracle gap', () => {
    const sets = swecTestSets({
      baseResults: [
        { testId: 't1', outcome: 'passed' },
        { testId: 't2', outcome: 'passed' },
        { testId: 't2', outcome: 'error' },
        { testId: 't3', outcome: 'xfailed' },
        { testId: 't4', outcome: 'failed' },
        { testId: 't5', outcome: 'skipped' },
      ],
      oracleResults: [
        { testId: 't1', outcome: 'passed' },
        { testId: 't2', outcome: 'passed' },
        { testId: 't3', outcome: 'xpassed' },
        { testId: 't4', outcome: 'passed' },
        { testId: 't6', outcome: 'passed' },
      ],
    });
    expect(sets).toEqual({ p0: 1, pStar: 4, gap0: 3, basePassing: ['t1'], gapTests: ['t2', 't4', 't6'] });
  });
});
