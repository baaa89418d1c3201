import { describe, expect, it } from 'vitest';
import { brokenCause } from '../../../src/revalidation/broken-cause.js';
import { judgeInstance, type Outcome } from '../../../src/revalidation/judge.js';
import { lifecycleMove } from '../../../src/revalidation/lifecycle.js';
import { checkEvidence } from '../../../src/revalidation/pre-check.js';
import { selectScope } from '../../../src/scoring/ci-repair/scope.js';

const baseline = (verdict: 'passed' | 'failed', jobs: string[] = ['test'], labels: string[] = ['Test Failure']): Outcome => ({
  kind: 'baseline',
  state: 'completed',
  verdict,
  outcome: verdict,
  failedJobs: verdict === 'failed' ? jobs.map((job) => ({ job, step: 'Run tests' })) : [],
  labels: verdict === 'failed' ? labels : [],
});
const reference = (verdict: 'passed' | 'failed'): Outcome => ({ kind: 'reference', state: 'completed', verdict, outcome: verdict });
const recorded = { jobs: ['test (3.11)'], types: ['Test Failure'] };

describe('health verdicts with evidence', () => {
  it('healthy when the baseline fails as recorded (matrix suffixes aside) and the ground truth passes', () => {
    const judged = judgeInstance([baseline('failed', ['test (3.12)']), reference('passed'), baseline('failed'), reference('passed')], recorded);
    expect(judged).toMatchObject({ result: 'healthy', evidence: [], flakiness: [] });
  });

  it('drifted when the baseline fails in other jobs than the recorded failure, naming both', () => {
    const judged = judgeInstance([baseline('failed', ['lint']), reference('passed'), baseline('failed', ['lint']), reference('passed')], recorded);
    expect(judged.result).toBe('drifted');
    expect(judged.evidence).toEqual([
      expect.objectContaining({ finding: 'other_jobs', side: 'baseline', replays: 2, of: 2, expected: recorded, observed: { jobs: ['lint'], steps: ['lint / Run tests'], types: ['Test Failure'] } }),
    ]);
  });

  it('drifted when the baseline fails with other error types than recorded', () => {
    const judged = judgeInstance([baseline('failed', ['test'], ['Dependency Issues']), reference('passed')], recorded);
    expect(judged.evidence).toEqual([expect.objectContaining({ finding: 'other_types', observed: expect.objectContaining({ types: ['Dependency Issues'] }) })]);
    expect(judged.result).toBe('drifted');
  });

  it('types of one family are no drift: a failing test told as an assertion error one time', () => {
    expect(judgeInstance([baseline('failed', ['test'], ['Assertion Error']), reference('passed')], recorded).result).toBe('healthy');
  });

  it('drifted when the baseline now passes or the ground truth now fails', () => {
    expect(judgeInstance([baseline('passed'), reference('passed')], recorded).evidence).toEqual([expect.objectContaining({ finding: 'baseline_passes' })]);
    expect(judgeInstance([baseline('failed'), reference('failed')], recorded)).toMatchObject({ result: 'drifted', evidence: [{ finding: 'reference_fails', side: 'reference' }] });
  });

  it('flaky keeps the share of disagreeing repeats (k of K)', () => {
    const judged = judgeInstance([baseline('failed'), baseline('failed'), baseline('passed'), reference('passed'), reference('passed'), reference('passed')], recorded);
    expect(judged).toMatchObject({ result: 'flaky', flakiness: [{ side: 'baseline', disagreeing: 1, of: 3, share: 1 / 3 }] });
    expect(judged.evidence).toEqual([expect.objectContaining({ finding: 'disagreement', side: 'baseline', replays: 1, of: 3 })]);
  });

  it('broken when the instance cannot be prepared: commit gone, ground truth does not apply, workflow invalid', () => {
    const gone: Outcome = { kind: 'baseline', state: 'infra_error', verdict: 'invalid', outcome: 'infra_error', reason: 'infra_error', errorMessage: 'upstream does not have 0123abcd' };
    const stale: Outcome = { kind: 'reference', state: 'patch_failed', verdict: 'invalid', outcome: 'patch_failed', reason: 'patch_failed', errorMessage: 'check.sh: patch does not apply' };
    const yaml: Outcome = { kind: 'baseline', state: 'infra_error', verdict: 'invalid', outcome: 'infra_error', reason: 'infra_error', errorMessage: '.github/workflows/ci.yml is not valid YAML at line 3' };
    expect(judgeInstance([gone, reference('passed')])).toMatchObject({ result: 'broken', evidence: [{ finding: 'commit_missing', side: 'baseline' }] });
    expect(judgeInstance([baseline('failed'), stale])).toMatchObject({ result: 'broken', evidence: [{ finding: 'ground_truth_does_not_apply', side: 'reference' }] });
    expect(judgeInstance([yaml])).toMatchObject({ result: 'broken', evidence: [{ finding: 'workflow_invalid' }] });
  });

  it('a platform failure is never broken data: a network error, a lost runner, a database outage', () => {
    for (const reason of ['network_unreachable', 'runner_lost', 'database_unavailable']) {
      expect(brokenCause({ kind: 'baseline', state: 'infra_error', outcome: 'infra_error', reason, errorMessage: 'upstream does not have it' })).toBeNull();
    }
    expect(brokenCause({ kind: 'baseline', state: 'infra_error', outcome: 'infra_error', reason: 'infra_error', errorMessage: 'git clone failed: connection refused' })).toBeNull();
  });

  it('unreplayable when the preflight refuses it, with the blockers as evidence', () => {
    const blocked: Outcome = { kind: 'baseline', state: 'infra_error', verdict: 'invalid', outcome: 'infra_error', reason: 'not_replayable', errorMessage: 'runs-on: windows-latest (local runs Linux jobs only)' };
    expect(judgeInstance([blocked])).toMatchObject({ result: 'unreplayable', evidence: [{ finding: 'preflight_blocked', message: expect.stringContaining('windows-latest') }] });
  });
});

describe('lifecycle moves', () => {
  it.each([
    ['active', 'healthy', false, null],
    ['active', 'flaky', false, 'suspect'],
    ['active', 'drifted', false, 'suspect'],
    ['active', 'unreplayable', false, 'suspect'],
    ['suspect', 'drifted', false, 'quarantined'],
    ['suspect', 'healthy', false, 'active'],
    ['quarantined', 'healthy', false, 'active'],
    ['quarantined', 'healthy', true, null],
    ['quarantined', 'flaky', false, null],
    ['active', 'broken', false, 'quarantined'],
    ['suspect', 'inconclusive', false, null],
  ] as const)('%s + %s (hand quarantine: %s) → %s', (from, verdict, manual, to) => {
    expect(lifecycleMove(from, verdict, { manualQuarantine: manual })?.to ?? null).toBe(to);
  });
});

describe('report scope by lifecycle', () => {
  it('scores only active instances by default and says why the others are out; without a lifecycle, health decides', () => {
    const scope = selectScope([
      { id: 'a', repo: 'o/r', labels: [], health: 'healthy', lifecycle: 'active' },
      { id: 'b', repo: 'o/r', labels: [], health: 'flaky', lifecycle: 'active', lifecycleReason: 'restored by hand' },
      { id: 'c', repo: 'o/r', labels: [], health: 'healthy', lifecycle: 'quarantined', lifecycleReason: 'license unclear' },
      { id: 'd', repo: 'o/r', labels: [], health: 'drifted' },
    ]);
    expect(scope.instances.map((instance) => instance.id)).toEqual(['a', 'b']);
    expect(scope.excluded).toEqual([
      { id: 'c', repo: 'o/r', health: 'healthy', lifecycle: 'quarantined', reason: 'license unclear' },
      { id: 'd', repo: 'o/r', health: 'drifted' },
    ]);
  });
});

describe('verdict evidence from an instance check (before any replay)', () => {
  const base = {
    instanceId: 'i',
    backend: 'local' as const,
    ok: false,
    commits: { shaFail: { sha: 'a'.repeat(40), found: true, source: 'branch' as const, ref: null, url: null, message: null }, shaSuccess: null },
    groundTruth: { status: 'ok' as const, message: null },
    workflow: { status: 'ok' as const, message: null },
    preflight: { status: 'ok' as const, message: null, blockers: [] },
    reasons: [],
    checkedAt: '2026-12-01T00:00:00Z',
  };
  it('names the commit that is gone, the ground truth that does not apply, the preflight that blocks', () => {
    expect(checkEvidence({ ...base, problem: 'broken', commits: { shaFail: { ...base.commits.shaFail, found: false, source: null, message: 'not on any branch, pull ref or fork' }, shaSuccess: null } })).toEqual([
      { finding: 'commit_missing', side: 'baseline', message: 'not on any branch, pull ref or fork' },
    ]);
    expect(checkEvidence({ ...base, problem: 'broken', groundTruth: { status: 'failed', message: 'check.sh: does not apply' } })).toEqual([
      { finding: 'ground_truth_does_not_apply', side: 'reference', message: 'check.sh: does not apply' },
    ]);
    expect(checkEvidence({ ...base, problem: 'unreplayable', preflight: { status: 'failed', message: 'runs-on: windows-latest', blockers: [] } })).toEqual([
      { finding: 'preflight_blocked', side: 'baseline', message: 'runs-on: windows-latest' },
    ]);
  });
});
