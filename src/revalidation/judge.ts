import type { InstanceHealth } from '../domain/states.js';

export type RevalidationResult = InstanceHealth | 'inconclusive';

export interface Outcome {
  kind: 'baseline' | 'reference';
  verdict: string | null;
  /** The submission's outcome (passed, failed, infra_error, …); older rows have none. */
  outcome?: string | null;
}

export interface RevalidationCounts {
  baselineFailed: number;
  baselinePassed: number;
  referencePassed: number;
  referenceFailed: number;
  /** Replays the platform could not carry out (outcome infra_error). */
  infra: number;
  /** Other replays without a usable verdict (timed out, cancelled, no run, patch failed). */
  invalid: number;
}

/**
 * Judges an instance from repeated replays on one backend: the unpatched commit (baseline) must fail and the ground
 * truth (reference) must pass, every time.
 *
 * - Every replay, baseline and reference alike, ended `infra_error` → `unreplayable` on this backend (the instance
 *   cannot be replayed here: a service, the network, a tool), never `drifted`.
 * - Otherwise infra errors are set aside and the instance is judged on the valid replays (passed or failed): a
 *   platform error says nothing about whether the baseline still fails or the ground truth still passes.
 *   Consistently wrong on one side → `drifted` (the world changed: a dependency, the runner); sometimes right,
 *   sometimes wrong → `flaky`; nothing wrong → `healthy` only when both sides have a valid replay and no replay ended
 *   without a verdict for another reason (timed out, cancelled), else `inconclusive`.
 */
export function judgeInstance(outcomes: Outcome[]): { result: RevalidationResult; counts: RevalidationCounts } {
  const counts: RevalidationCounts = { baselineFailed: 0, baselinePassed: 0, referencePassed: 0, referenceFailed: 0, infra: 0, invalid: 0 };
  for (const outcome of outcomes) {
    if (outcome.outcome === 'infra_error') counts.infra += 1;
    else if (outcome.verdict !== 'passed' && outcome.verdict !== 'failed') counts.invalid += 1;
    else if (outcome.kind === 'baseline') counts[outcome.verdict === 'failed' ? 'baselineFailed' : 'baselinePassed'] += 1;
    else counts[outcome.verdict === 'passed' ? 'referencePassed' : 'referenceFailed'] += 1;
  }
  const sides = new Set(outcomes.map((outcome) => outcome.kind));
  if (outcomes.length > 0 && counts.infra === outcomes.length && sides.size === 2) return { result: 'unreplayable', counts };
  const wrong = counts.baselinePassed + counts.referenceFailed;
  const baselineValid = counts.baselineFailed + counts.baselinePassed;
  const referenceValid = counts.referencePassed + counts.referenceFailed;
  const baselineAlwaysWrong = counts.baselinePassed > 0 && counts.baselineFailed === 0;
  const referenceAlwaysWrong = counts.referenceFailed > 0 && counts.referencePassed === 0;
  if (wrong === 0) return { result: baselineValid > 0 && referenceValid > 0 && counts.invalid === 0 ? 'healthy' : 'inconclusive', counts };
  if ((baselineAlwaysWrong || counts.baselinePassed === 0) && (referenceAlwaysWrong || counts.referenceFailed === 0)) return { result: 'drifted', counts };
  return { result: 'flaky', counts };
}
