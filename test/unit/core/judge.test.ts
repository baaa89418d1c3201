import { describe, expect, it } from 'vitest';
import { judgeInstance, type Outcome } from '../../../src/revalidation/judge.js';

const o = (kind: 'baseline' | 'reference', verdict: string | null): Outcome => ({ kind, verdict });

describe('judgeInstance', () => {
  it.each([
    ['healthy: baseline always fails, ground truth always passes', [o('baseline', 'failed'), o('reference', 'passed'), o('baseline', 'failed'), o('reference', 'passed')], 'healthy'],
    ['drifted: the unpatched commit now passes every time', [o('baseline', 'passed'), o('reference', 'passed'), o('baseline', 'passed'), o('reference', 'passed')], 'drifted'],
    ['drifted: the ground truth fails every time', [o('baseline', 'failed'), o('reference', 'failed'), o('baseline', 'failed'), o('reference', 'failed')], 'drifted'],
    ['flaky: the ground truth passes once and fails once', [o('baseline', 'failed'), o('reference', 'passed'), o('baseline', 'failed'), o('reference', 'failed')], 'flaky'],
    ['flaky: the baseline sometimes passes', [o('baseline', 'failed'), o('baseline', 'passed'), o('reference', 'passed')], 'flaky'],
    ['inconclusive: replays that could not run, nothing wrong', [o('baseline', 'failed'), o('reference', 'invalid')], 'inconclusive'],
  ])('%s', (_name, outcomes, expected) => {
    expect(judgeInstance(outcomes).result).toBe(expected);
  });
});
