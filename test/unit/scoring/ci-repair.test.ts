import { describe, it, expect } from 'vitest';
import {
  buildCiRepairReport,
  classifyOutcome,
  type CiInstance,
  type CiRunInput,
  type CiSubmissionOutcome,
} from '../../../src/scoring/ci-repair/index.js';

const instances: CiInstance[] = [
  { id: 'i1', repo: 'a/x', labels: ['Code Linting', 'Code Formatting'], health: 'healthy' },
  { id: 'i2', repo: 'a/x', labels: ['Test Failure'], health: 'unknown' },
  { id: 'i3', repo: 'b/y', labels: ['Code Linting'], health: 'healthy' },
  { id: 'i4', repo: 'b/y', labels: ['Runtime Error', 'Test Failure'], health: 'healthy' },
  { id: 'i5', repo: 'c/z', labels: ['Syntax Error'], health: 'flaky' },
  { id: 'i6', repo: 'c/z', labels: ['Dependency Issues'], health: 'healthy' },
];

const sub = (instanceId: string, createdAt: number, over: Partial<CiSubmissionOutcome>): CiSubmissionOutcome => ({
  instanceId,
  createdAt,
  state: 'completed',
  verdict: 'passed',
  observedLabels: [],
  ...over,
});

const runA: CiRunInput = {
  id: 'A',
  label: 'model-a',
  submissions: [
    sub('i1', 1, { verdict: 'failed', observedLabels: ['Code Linting'] }),
    sub('i1', 2, {}), // the latest counts: passed
    sub('i2', 1, { verdict: 'failed', observedLabels: ['Test Failure', 'Assertion Error'] }),
    sub('i3', 1, { state: 'patch_failed', verdict: 'invalid', reason: 'does not apply' }),
    sub('i4', 1, { verdict: 'invalid', reason: 'runner lost' }),
    sub('i5', 1, {}),
    sub('ghost', 1, {}),
  ],
};

const runB: CiRunInput = {
  id: 'B',
  label: 'model-b',
  submissions: [
    sub('i1', 5, {}),
    sub('i1', 5, { verdict: 'failed', observedLabels: ['Code Formatting'] }), // tie: later element wins
    sub('i2', 1, {}),
    sub('i3', 1, {}),
    sub('i4', 1, { state: 'running', verdict: null }),
    sub('i6', 1, { state: 'timed_out', verdict: null }),
  ],
};

describe('classifyOutcome', () => {
  it('maps states and verdicts onto reasons', () => {
    expect(classifyOutcome(undefined)).toBe('no_submission');
    expect(classifyOutcome(sub('i', 1, { state: 'queued', verdict: null }))).toBe('pending');
    expect(classifyOutcome(sub('i', 1, { state: 'no_run', verdict: 'failed' }))).toBe('no_run');
    expect(classifyOutcome(sub('i', 1, { verdict: null }))).toBe('pending');
    expect(classifyOutcome(sub('i', 1, { verdict: 'invalid' }))).toBe('invalid');
    expect(classifyOutcome(sub('i', 1, {}))).toBe('passed');
    // a recorded outcome wins; older rows: a publish failure is an infra error
    expect(classifyOutcome(sub('i', 1, { state: 'infra_error', verdict: 'invalid', outcome: 'infra_error' }))).toBe('infra_error');
    expect(classifyOutcome(sub('i', 1, { state: 'publish_failed', verdict: 'invalid' }))).toBe('infra_error');
    expect(classifyOutcome(sub('i', 1, { state: 'publish_failed', verdict: 'invalid', outcome: 'infra_error' }))).toBe('infra_error');
    expect(classifyOutcome(sub('i', 1, { state: 'patch_failed', verdict: 'invalid', outcome: 'patch_failed' }))).toBe('patch_failed');
  });
});

describe('buildCiRepairReport', () => {
  const report = buildCiRepairReport(instances, [runA, runB]);

  it('excludes unhealthy instances by default and lists them', () => {
    expect(report.scope.instances).toBe(5);
    expect(report.scope.excluded).toEqual([{ id: 'i5', repo: 'c/z', health: 'flaky' }]);
    expect(report.runs[0]?.ignoredSubmissions).toBe(2);
    const all = buildCiRepairReport(instances, [runA], { includeUnhealthy: true });
    expect(all.scope.instances).toBe(6);
    expect(all.runs[0]?.passed).toBe(2);
  });

  it('computes the strict success rate over all instances in scope and the rate over the evaluated ones', () => {
    const [a, b] = report.runs;
    // i1 passed, i2 failed, i3 patch_failed (evaluated: the patch's own failure); i4 invalid, i6 no submission.
    expect(a).toMatchObject({ instances: 5, passed: 1, evaluated: 3, repairFailures: 2, notEvaluated: 2 });
    expect(a?.successRateStrict.percent).toBe(20);
    expect(a?.successRateEvaluated.percent).toBeCloseTo(100 / 3, 10);
    expect(a?.notRepaired).toEqual({
      failed: 1,
      patch_failed: 1,
      infra_error: 0,
      no_run: 0,
      timed_out: 0,
      cancelled: 0,
      invalid: 1,
      pending: 0,
      no_submission: 1,
    });
    expect(a?.notEvaluatedReasons).toEqual([{ outcome: 'invalid', reason: 'runner lost', count: 1 }]);
    expect(b).toMatchObject({ passed: 2, evaluated: 3 });
    expect(b?.notRepaired).toMatchObject({ failed: 1, pending: 1, timed_out: 1 });
  });

  it('never counts infra_error, no_run or timed_out as a failed repair: they leave the evaluated rate and stay in the strict one', () => {
    const outcomes: CiRunInput = {
      id: 'O',
      label: 'outcomes',
      submissions: [
        sub('i1', 1, { outcome: 'passed' }),
        sub('i2', 1, { state: 'infra_error', verdict: 'invalid', outcome: 'infra_error', reason: 'network_unreachable' }),
        sub('i3', 1, { state: 'no_run', verdict: 'invalid', outcome: 'no_run', reason: 'no_run' }),
        sub('i4', 1, { state: 'timed_out', verdict: 'invalid', outcome: 'timed_out', reason: 'timed_out' }),
        sub('i6', 1, { verdict: 'failed', outcome: 'failed' }),
      ],
    };
    const [summary] = buildCiRepairReport(instances, [outcomes]).runs;
    expect(summary).toMatchObject({ instances: 5, passed: 1, evaluated: 2, repairFailures: 1, notEvaluated: 3 });
    expect(summary?.notRepaired).toMatchObject({ failed: 1, patch_failed: 0, infra_error: 1, no_run: 1, timed_out: 1 });
    expect(summary?.successRateStrict.percent).toBe(20);
    expect(summary?.successRateEvaluated.percent).toBe(50);
    expect(summary?.notEvaluatedReasons).toEqual([
      { outcome: 'infra_error', reason: 'network_unreachable', count: 1 },
      { outcome: 'no_run', reason: 'no_run', count: 1 },
      { outcome: 'timed_out', reason: 'timed_out', count: 1 },
    ]);
    // The same instances with the infra error replaced by a real failure: one more failed repair, a lower evaluated rate.
    const failing = { ...outcomes, submissions: outcomes.submissions.map((s) => (s.instanceId === 'i2' ? { ...s, state: 'completed' as const, verdict: 'failed' as const, outcome: 'failed' as const } : s)) };
    const [worse] = buildCiRepairReport(instances, [failing]).runs;
    expect(worse).toMatchObject({ evaluated: 3, repairFailures: 2 });
    expect(worse?.successRateStrict.percent).toBe(20);
    expect(worse?.successRateEvaluated.percent).toBeCloseTo(100 / 3, 10);
  });

  it('counts an instance once in every type it carries (Table 7)', () => {
    const linting = report.byType.find((row) => row.type === 'Code Linting');
    expect(linting?.occurrences).toBe(2);
    expect(linting?.runs.map((r) => r.count)).toEqual([1, 1]);
    const tests = report.byType.find((row) => row.type === 'Test Failure');
    expect(tests?.runs.map((r) => r.count)).toEqual([0, 1]);
    expect(report.byType).toHaveLength(12);
    expect(report.byType.map((row) => row.occurrences)).toEqual([...report.byType.map((row) => row.occurrences)].sort((x, y) => y - x));
    expect(report.labels).toBe(7);
  });

  it('breaks down per repository (Table 8) and per instance', () => {
    expect(report.byRepo.map((row) => [row.repo, row.instances, row.runs.map((r) => r.count)])).toEqual([
      ['a/x', 2, [1, 1]],
      ['b/y', 2, [0, 1]],
      ['c/z', 1, [0, 0]],
    ]);
    expect(report.byInstance[2]?.runs[0]).toEqual({ outcome: 'patch_failed', reason: 'does not apply', observedLabels: [] });
  });

  it('tabulates observed failure types of failed submissions', () => {
    const [a, b] = report.observed;
    expect(a?.failedSubmissions).toBe(1);
    expect(a?.distribution).toEqual([
      { type: 'Test Failure', count: 1 },
      { type: 'Assertion Error', count: 1 },
    ]);
    expect(a?.transitions).toEqual([
      { label: 'Test Failure', failed: 1, unlabelled: 0, observed: [{ type: 'Test Failure', count: 1 }, { type: 'Assertion Error', count: 1 }] },
    ]);
    expect(b?.transitions.map((row) => row.label)).toEqual(['Code Formatting', 'Code Linting']);
  });

  it('compares two runs pairwise', () => {
    expect(report.comparisons).toEqual([
      {
        runA: 'A',
        runB: 'B',
        instances: 5,
        bothPassed: 0,
        onlyA: 1,
        onlyB: 2,
        neither: 2,
        mcnemar: { method: 'exact_binomial', statistic: null, pValue: 1 },
      },
    ]);
  });

  it('orders submissions by Date as well as by number', () => {
    const dated = buildCiRepairReport(instances.slice(0, 1), [
      {
        id: 'D',
        label: 'dated',
        submissions: [
          sub('i1', 0, { createdAt: new Date('2026-01-02T00:00:00Z') }),
          sub('i1', 0, { createdAt: new Date('2026-01-01T00:00:00Z'), verdict: 'failed' }),
        ],
      },
    ]);
    expect(dated.runs[0]?.passed).toBe(1);
  });

  it('uses chi-square once discordant pairs reach the threshold', () => {
    const custom = buildCiRepairReport(instances, [runA, runB], { mcnemarExactBelow: 2 });
    expect(custom.comparisons[0]?.mcnemar.method).toBe('chi_square_continuity');
    expect(custom.mcnemarExactBelow).toBe(2);
  });

  it('rejects duplicate instance ids', () => {
    expect(() => buildCiRepairReport([...instances, instances[0]!], [])).toThrow(/unique/);
  });
});
