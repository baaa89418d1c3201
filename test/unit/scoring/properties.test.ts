import { describe, it, expect } from 'vitest';
import { ERROR_TYPES } from '../../../src/domain/error-types.js';
import { buildCiRepairReport, type CiInstance, type CiRunInput } from '../../../src/scoring/ci-repair/index.js';
import { mcnemarTest } from '../../../src/scoring/stats/mcnemar.js';
import { wilsonInterval } from '../../../src/scoring/stats/wilson.js';
import { evoScore, type SweCiRound } from '../../../src/scoring/swe-ci/index.js';
import {
  gradeSweepTrial,
  sweepScore,
  sweepTaskScore,
  type SweepGradedTrial,
  type SweepTrialResults,
} from '../../../src/scoring/swe-sweep/index.js';
import { syntheticCiDataset } from '../../../src/scoring/synthetic/ci-dataset.js';
import { createPrng, type Prng } from '../../../src/scoring/synthetic/prng.js';

const SEEDS = Array.from({ length: 40 }, (_, i) => 1000 + i * 7919);

/** Brute force: scan every submission for each instance, latest createdAt wins, later element on ties. */
function bruteForcePassed(instances: readonly CiInstance[], run: CiRunInput): Set<string> {
  const passed = new Set<string>();
  for (const instance of instances) {
    let latestIndex = -1;
    run.submissions.forEach((submission, index) => {
      if (submission.instanceId !== instance.id) return;
      const best = run.submissions[latestIndex];
      if (best === undefined || Number(submission.createdAt) >= Number(best.createdAt)) latestIndex = index;
    });
    const latest = run.submissions[latestIndex];
    if (latest?.state === 'completed' && latest.verdict === 'passed') passed.add(instance.id);
  }
  return passed;
}

describe('CI-Repair-Bench properties', () => {
  it.each(SEEDS)('success rate and per-type counts match a brute-force recount (seed %d)', (seed) => {
    const prng = createPrng(seed);
    const { instances, runs } = syntheticCiDataset({
      seed,
      instances: prng.int(1, 60),
      submissions: prng.int(0, 300),
      runs: prng.int(1, 3),
      repos: prng.int(1, 8),
    });
    const includeUnhealthy = prng.next() < 0.5;
    const report = buildCiRepairReport(instances, runs, { includeUnhealthy });
    const scope = instances.filter((instance) => includeUnhealthy || (instance.health !== 'flaky' && instance.health !== 'drifted'));
    expect(report.scope.instances).toBe(scope.length);
    runs.forEach((run, r) => {
      const passed = bruteForcePassed(scope, run);
      const summary = report.runs[r];
      expect(summary?.passed).toBe(passed.size);
      expect(summary?.successRateStrict.percent).toBe(scope.length === 0 ? null : (passed.size / scope.length) * 100);
      const reasons = Object.values(summary?.notRepaired ?? {}).reduce((sum, n) => sum + n, 0);
      expect(reasons + passed.size).toBe(scope.length);
      // evaluated = passed + failed repairs; the rest is not evaluated, and the evaluated rate is never below the strict one
      expect(summary?.evaluated).toBe(passed.size + (summary?.notRepaired.failed ?? 0) + (summary?.notRepaired.patch_failed ?? 0));
      expect((summary?.evaluated ?? 0) + (summary?.notEvaluated ?? 0)).toBe(scope.length);
      if (summary?.successRateEvaluated.percent != null) expect(summary.successRateEvaluated.percent).toBeGreaterThanOrEqual(summary.successRateStrict.percent ?? 0);
      for (const type of ERROR_TYPES) {
        const carrying = scope.filter((instance) => instance.labels.includes(type));
        const row = report.byType.find((entry) => entry.type === type);
        expect(row?.occurrences).toBe(carrying.length);
        expect(row?.runs[r]?.count).toBe(carrying.filter((instance) => passed.has(instance.id)).length);
      }
      const repoTotal = report.byRepo.reduce((sum, row) => sum + (row.runs[r]?.count ?? 0), 0);
      expect(repoTotal).toBe(passed.size);
    });
  });

  it('reproduces the published per-type occurrences on a full-size dataset', () => {
    const { instances } = syntheticCiDataset({ seed: 42, submissions: 0 });
    const report = buildCiRepairReport(instances, [], { includeUnhealthy: true });
    expect(report.labels).toBe(893);
    expect(report.byType.find((row) => row.type === 'Code Linting')?.occurrences).toBe(208);
    expect(report.byType.at(-1)).toMatchObject({ type: 'Type Checking', occurrences: 2 });
  });
});

const randomRound = (prng: Prng, pStar: number): SweCiRound => {
  const roll = prng.next();
  if (roll < 0.1) return null;
  if (roll < 0.2) return { passed: null };
  const passed = prng.int(-5, pStar + 10);
  return roll < 0.6 ? passed : { passed };
};

describe('SWE-CI properties', () => {
  it('EvoScore stays within [-1, 1]', () => {
    const prng = createPrng(7);
    for (let i = 0; i < 2000; i += 1) {
      const p0 = prng.int(0, 50);
      const pStar = p0 + prng.int(0, 50);
      const rounds = Array.from({ length: prng.int(0, 25) }, () => randomRound(prng, pStar));
      const gamma = prng.next() < 0.5 ? 1 : 0.5 + prng.next();
      const score = evoScore(rounds, p0, pStar, { gamma, n: prng.int(1, 25) });
      expect(score).toBeGreaterThanOrEqual(-1);
      expect(score).toBeLessThanOrEqual(1);
    }
  });
});

function randomTrial(prng: Prng, task: string): SweepTrialResults {
  const basePassing = Array.from({ length: prng.int(0, 15) }, (_, i) => `base${i}`);
  return {
    task,
    basePassing,
    visibleResults: basePassing.map((testId) => ({ testId, outcome: 'passed' })),
    bugs: Array.from({ length: prng.int(0, 8) }, (_, b) => ({
      id: `bug${b}`,
      targetedTests: [`t${b}a`, `t${b}b`],
      results: [
        { testId: `t${b}a`, outcome: prng.pick(['passed', 'failed', 'error', 'skipped']) },
        { testId: `t${b}b`, outcome: prng.pick(['passed', 'passed', 'skipped']) },
      ],
    })),
  };
}

describe('SWE-sweep properties', () => {
  it('a regression anywhere zeroes the task', () => {
    const prng = createPrng(99);
    for (let i = 0; i < 500; i += 1) {
      const trial = randomTrial(prng, `task${i}`);
      const clean = gradeSweepTrial(trial);
      expect(clean.regressed).toBe(false);
      if (trial.basePassing.length === 0) continue;
      const broken = prng.pick(trial.basePassing);
      const kind = prng.pick(['failed', 'error', 'skipped', 'missing', 'timeout']);
      const visibleResults =
        kind === 'missing'
          ? trial.visibleResults.filter((result) => result.testId !== broken)
          : trial.visibleResults.map((result) =>
              result.testId === broken && kind !== 'timeout' ? { testId: broken, outcome: kind } : result,
            );
      const graded = gradeSweepTrial({ ...trial, visibleResults, visibleTimedOut: kind === 'timeout' });
      expect(graded.regressed).toBe(true);
      expect(graded.resolved).toBe(clean.resolved);
      expect(sweepTaskScore(graded)).toBe(0);
    }
  });

  it('the micro-average matches a recount and never exceeds the score ignoring regressions', () => {
    const prng = createPrng(5);
    for (let i = 0; i < 200; i += 1) {
      const trials = Array.from({ length: prng.int(0, 12) }, (_, t) =>
        prng.next() < 0.1
          ? { task: `t${t}`, evaluationFailed: true as const }
          : (() => {
              const bugs = prng.int(0, 10);
              return { task: `t${t}`, bugs, resolved: prng.int(0, bugs), regressed: prng.next() < 0.3 };
            })(),
      );
      const graded = trials.filter((trial): trial is SweepGradedTrial => !('evaluationFailed' in trial));
      const bugs = graded.reduce((sum, trial) => sum + trial.bugs, 0);
      const resolved = graded.reduce((sum, trial) => sum + (trial.regressed ? 0 : trial.resolved), 0);
      const score = sweepScore(trials);
      expect(score.score).toBe(bugs === 0 ? 0 : resolved / bugs);
      expect(score.score).toBeLessThanOrEqual(score.scoreIgnoringRegressions);
      expect(score.evaluationFailures).toBe(trials.length - graded.length);
    }
  });
});

describe('interval and test properties', () => {
  it('Wilson intervals contain the estimate and McNemar p-values are probabilities', () => {
    const prng = createPrng(3);
    for (let i = 0; i < 1000; i += 1) {
      const total = prng.int(1, 600);
      const successes = prng.int(0, total);
      const interval = wilsonInterval(successes, total, prng.pick([0.9, 0.95, 0.99]));
      expect(interval!.lower).toBeLessThanOrEqual(successes / total + 1e-12);
      expect(interval!.upper).toBeGreaterThanOrEqual(successes / total - 1e-12);
      expect(interval!.lower).toBeGreaterThanOrEqual(0);
      expect(interval!.upper).toBeLessThanOrEqual(1);
      const p = mcnemarTest(prng.int(0, 80), prng.int(0, 80)).pValue;
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(1);
    }
  });
});
