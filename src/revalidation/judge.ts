import type { InstanceHealth } from '../domain/states.js';

export type RevalidationResult = InstanceHealth | 'inconclusive';

export interface Outcome {
  kind: 'baseline' | 'reference';
  verdict: string | null;
}

/**
 * Judges an instance from repeated replays: the unpatched commit (baseline) must fail and the ground truth
 * (reference) must pass, every time. Consistently wrong on one side → drifted (the world changed: a
 * dependency, the runner); sometimes right, sometimes wrong → flaky; replays that could not run (invalid)
 * and nothing wrong → inconclusive.
 */
export function judgeInstance(outcomes: Outcome[]): { result: RevalidationResult; counts: Record<string, number> } {
  const counts = { baselineFailed: 0, baselinePassed: 0, referencePassed: 0, referenceFailed: 0, invalid: 0 };
  for (const outcome of outcomes) {
    if (outcome.verdict !== 'passed' && outcome.verdict !== 'failed') counts.invalid += 1;
    else if (outcome.kind === 'baseline') counts[outcome.verdict === 'failed' ? 'baselineFailed' : 'baselinePassed'] += 1;
    else counts[outcome.verdict === 'passed' ? 'referencePassed' : 'referenceFailed'] += 1;
  }
  const wrong = counts.baselinePassed + counts.referenceFailed;
  const right = counts.baselineFailed + counts.referencePassed;
  const baselineAlwaysWrong = counts.baselinePassed > 0 && counts.baselineFailed === 0;
  const referenceAlwaysWrong = counts.referenceFailed > 0 && counts.referencePassed === 0;
  if (wrong === 0) return { result: right > 0 && counts.invalid === 0 ? 'healthy' : 'inconclusive', counts };
  if ((baselineAlwaysWrong || counts.baselinePassed === 0) && (referenceAlwaysWrong || counts.referenceFailed === 0)) return { result: 'drifted', counts };
  return { result: 'flaky', counts };
}
