import { describe, it, expect } from 'vitest';
import { exactSum } from '../../../src/scoring/stats/exact-sum.js';
import { chiSquareSurvival } from '../../../src/scoring/stats/gamma.js';
import { mcnemarTest } from '../../../src/scoring/stats/mcnemar.js';
import { normalQuantile } from '../../../src/scoring/stats/normal-quantile.js';
import { rate } from '../../../src/scoring/stats/rate.js';
import { wilsonInterval } from '../../../src/scoring/stats/wilson.js';

// Reference values from scipy 1.17 (norm.ppf, chi2.sf, binomtest) and Python's math module.
describe('normalQuantile', () => {
  it('matches scipy norm.ppf', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 14);
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758293035489004, 14);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 12);
    expect(normalQuantile(0.5)).toBe(0);
  });
});

describe('wilsonInterval', () => {
  it('matches the closed form at 95%', () => {
    const half = wilsonInterval(5, 10);
    expect(half?.lower).toBeCloseTo(0.236593090512564, 14);
    expect(half?.upper).toBeCloseTo(0.7634069094874361, 14);
    const paper = wilsonInterval(107, 567);
    expect(paper?.lower).toBeCloseTo(0.15864102936997818, 14);
    expect(paper?.upper).toBeCloseTo(0.22297361240943023, 14);
    expect(wilsonInterval(0, 10)).toEqual({ lower: 0, upper: expect.closeTo(0.2775327998628892, 14) });
    expect(wilsonInterval(10, 10)?.upper).toBe(1);
  });

  it('is null without data and widens with confidence', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    const at95 = wilsonInterval(30, 100);
    const at99 = wilsonInterval(30, 100, 0.99);
    expect(at99!.upper - at99!.lower).toBeGreaterThan(at95!.upper - at95!.lower);
  });

  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(11, 10)).toThrow(/between 0 and total/);
    expect(() => wilsonInterval(1, 10, 1)).toThrow(/confidence/);
  });

  it('feeds rates in percent', () => {
    const r = rate(107, 567);
    expect(r.percent).toBe((107 / 567) * 100);
    expect(r.ci?.lower).toBeCloseTo(15.864102936997818, 12);
    expect(rate(0, 0)).toEqual({ count: 0, total: 0, percent: null, ci: null });
  });
});

describe('mcnemarTest', () => {
  it('uses the exact binomial test below 25 discordant pairs', () => {
    expect(mcnemarTest(1, 9)).toEqual({ method: 'exact_binomial', statistic: null, pValue: 0.021484375 });
    expect(mcnemarTest(17, 3).pValue).toBeCloseTo(0.0025768280029296875, 15);
    expect(mcnemarTest(5, 5).pValue).toBe(1);
    expect(mcnemarTest(0, 0)).toEqual({ method: 'none', statistic: null, pValue: 1 });
  });

  it('uses chi-square with continuity correction from 25 pairs', () => {
    const result = mcnemarTest(30, 10);
    expect(result.method).toBe('chi_square_continuity');
    expect(result.statistic).toBe(9.025);
    expect(result.pValue).toBeCloseTo(0.002663119259138558, 14);
  });

  it('agrees with scipy chi2.sf over a range', () => {
    expect(chiSquareSurvival(0.1, 1)).toBeCloseTo(0.7518296340458492, 14);
    expect(chiSquareSurvival(50, 1) / 1.537459794428033e-12).toBeCloseTo(1, 10);
    expect(chiSquareSurvival(3, 2)).toBeCloseTo(Math.exp(-1.5), 14);
  });
});

describe('exactSum', () => {
  it('is correctly rounded', () => {
    expect(exactSum(Array.from({ length: 10 }, () => 0.1))).toBe(1);
    expect(exactSum([1e100, 1, -1e100])).toBe(1);
    expect(exactSum([])).toBe(0);
  });
});
