import { describe, expect, it } from 'vitest';
import { judgeInstance, type Outcome } from '../../../src/revalidation/judge.js';

const o = (kind: 'baseline' | 'reference', verdict: string | null): Outcome => ({ kind, verdict });
const infra = (kind: 'baseline' | 'reference'): Outcome => ({ kind, verdict: 'invalid', outcome: 'infra_error' });

describe('judgeInstance', () => {
  it.each([
    ['healthy: baseline always fails, ground truth always passes', [o('baseline', 'failed'), o('reference', 'passed'), o('baseline', 'failed'), o('reference', 'passed')], 'healthy'],
    ['drifted: the unpatched commit now passes every time', [o('baseline', 'passed'), o('reference', 'passed'), o('baseline', 'passed'), o('reference', 'passed')], 'drifted'],
    ['drifted: the ground truth fails every time', [o('baseline', 'failed'), o('reference', 'failed'), o('baseline', 'failed'), o('reference', 'failed')], 'drifted'],
    ['flaky: the ground truth passes once and fails once', [o('baseline', 'failed'), o('reference', 'passed'), o('baseline', 'failed'), o('reference', 'failed')], 'flaky'],
    ['flaky: the baseline sometimes passes', [o('baseline', 'failed'), o('baseline', 'passed'), o('reference', 'passed')], 'flaky'],
    ['inconclusive: replays that could not run, nothing wrong', [o('baseline', 'failed'), o('reference', 'invalid')], 'inconclusive'],
    ['unreplayable: every baseline and ground-truth replay ended infra_error', [infra('baseline'), infra('reference'), infra('baseline'), infra('reference')], 'unreplayable'],
    ['not drifted: a baseline that "fails" only on infra errors says nothing', [infra('baseline'), infra('baseline'), o('reference', 'passed')], 'inconclusive'],
    ['healthy on the valid replays: one infra error on each side is set aside', [o('baseline', 'failed'), infra('baseline'), o('reference', 'passed'), infra('reference')], 'healthy'],
    ['drifted on the valid replays: the ground truth fails whenever it runs', [infra('baseline'), o('baseline', 'failed'), o('reference', 'failed'), infra('reference')], 'drifted'],
    ['inconclusive: infra errors on one side only, nothing valid on it', [infra('baseline'), infra('baseline'), infra('reference'), o('reference', 'passed')], 'inconclusive'],
  ])('%s', (_name, outcomes, expected) => {
    expect(judgeInstance(outcomes).result).toBe(expected);
  });

  it('counts infra errors apart from other replays without a verdict', () => {
    expect(judgeInstance([infra('baseline'), o('baseline', 'failed'), o('reference', 'invalid'), o('reference', 'passed')]).counts).toEqual({
      baselineFailed: 1, baselinePassed: 0, referencePassed: 1, referenceFailed: 0, infra: 1, invalid: 1,
    });
  });
});
