import type { InstanceHealth } from '../domain/states.js';
import { brokenCause, type BrokenCause } from './broken-cause.js';

export type RevalidationResult = Exclude<InstanceHealth, 'unknown'> | 'inconclusive';

/** One replay of a re-validation, as the judge needs it. */
export interface Outcome {
  kind: 'baseline' | 'reference';
  verdict: string | null;
  /** The submission's outcome (passed, failed, infra_error, …); older rows have none. */
  outcome?: string | null;
  state?: string;
  reason?: string | null;
  errorMessage?: string | null;
  /** The submission's reason details (preflight blockers, …). */
  reasonDetails?: unknown;
  /** Jobs that failed, with their failed step (a baseline's failure signature). */
  failedJobs?: { job: string; step: string | null }[];
  /** Failure types the classifier observed. */
  labels?: string[];
}

/** The failure the instance records (its released logs and labels): a baseline must fail the same way. */
export interface RecordedFailure {
  /** Names of the jobs that failed (the released logs' `step_name`). */
  jobs: string[];
  /** Error types (normalized to the 12 types). */
  types: string[];
}

export interface RevalidationCounts {
  baselineFailed: number;
  baselinePassed: number;
  referencePassed: number;
  referenceFailed: number;
  /** Replays the platform could not carry out (outcome infra_error). */
  infra: number;
  /** Other replays without a usable verdict (timed out, cancelled, no run). */
  invalid: number;
}

/** Why a verdict is what it is: one entry per finding. */
export interface Evidence {
  finding:
    | 'baseline_passes'
    | 'reference_fails'
    | 'other_jobs'
    | 'other_types'
    | 'disagreement'
    | 'commit_missing'
    | 'ground_truth_does_not_apply'
    | 'workflow_invalid'
    | 'preflight_blocked'
    | 'infrastructure';
  side: 'baseline' | 'reference';
  message: string;
  /** Replays of the side this finding covers, of `of` valid ones. */
  replays?: number;
  of?: number;
  expected?: { jobs?: string[]; types?: string[] };
  observed?: { jobs?: string[]; steps?: string[]; types?: string[] };
}

/** The share of repeats that disagree with the majority, per side (k of K). */
export interface Flakiness {
  side: 'baseline' | 'reference';
  disagreeing: number;
  of: number;
  share: number;
}

export interface Judgement {
  result: RevalidationResult;
  counts: RevalidationCounts;
  evidence: Evidence[];
  flakiness: Flakiness[];
}

/**
 * Error types compared by family: the classifier often tells a failing test as `Test Failure` one time and
 * `Assertion Error` another, which is no drift; a test failure turning into a dependency or lint failure is.
 */
const TYPE_FAMILIES: Record<string, string> = {
  'Test Failure': 'tests',
  'Assertion Error': 'tests',
  'Runtime Error': 'tests',
  'Code Formatting': 'static',
  'Code Linting': 'static',
  'Type Checking': 'static',
  'Doc/Docstring': 'static',
  'Syntax Error': 'static',
  'Dependency Issues': 'setup',
  'Package Installation Error': 'setup',
  'Configuration Error': 'setup',
  'Environment Error': 'setup',
};
const family = (type: string): string => TYPE_FAMILIES[type] ?? type;

const normalizeJob = (name: string): string => name.replace(/\s*\(.*\)\s*$/, '').trim().toLowerCase();
const uniq = (values: readonly string[]): string[] => [...new Set(values)].sort();

type Reading = { kind: 'right' } | { kind: 'wrong'; finding: Evidence['finding']; jobs: string[]; steps: string[]; types: string[] };

/** A valid baseline must fail, in (one of) the recorded jobs and with (one of) the recorded types when those are known. */
function readBaseline(outcome: Outcome, recorded: RecordedFailure | undefined): Reading {
  const jobs = uniq((outcome.failedJobs ?? []).map((job) => job.job));
  const steps = uniq((outcome.failedJobs ?? []).flatMap((job) => (job.step === null ? [] : [`${job.job} / ${job.step}`])));
  const types = uniq(outcome.labels ?? []);
  if (outcome.verdict === 'passed') return { kind: 'wrong', finding: 'baseline_passes', jobs, steps, types };
  if (recorded !== undefined && recorded.jobs.length > 0 && jobs.length > 0) {
    const expected = new Set(recorded.jobs.map(normalizeJob));
    if (!jobs.some((job) => expected.has(normalizeJob(job)))) return { kind: 'wrong', finding: 'other_jobs', jobs, steps, types };
  }
  const recordedFamilies = new Set((recorded?.types ?? []).map(family));
  if (recordedFamilies.size > 0 && types.length > 0 && !types.some((type) => recordedFamilies.has(family(type)))) {
    return { kind: 'wrong', finding: 'other_types', jobs, steps, types };
  }
  return { kind: 'right' };
}

const FINDING_TEXT: Record<string, string> = {
  baseline_passes: 'the unpatched commit passes',
  reference_fails: 'the ground truth fails',
  other_jobs: 'the unpatched commit fails in other jobs than the recorded failure',
  other_types: 'the unpatched commit fails with other kinds of error than the recorded failure',
};

/**
 * Judges an instance from repeated replays on one backend: the unpatched commit (baseline) must fail the way the
 * instance records and the ground truth (reference) must pass, every time.
 *
 * - A replay that could not be prepared for a reason of the instance's own data (commit gone, ground truth does not
 *   apply, workflow invalid) → `broken`.
 * - A replay the backend's preflight refused, or every replay of both sides ended `infra_error` → `unreplayable`.
 * - Otherwise infra errors are set aside and each side is judged on its valid replays (passed or failed): wrong on
 *   some repeats only → `flaky` (the share of disagreeing repeats kept); wrong on every repeat of a side → `drifted`
 *   (the baseline now passes, fails elsewhere or otherwise, or the ground truth fails); nothing wrong → `healthy`
 *   when both sides have a valid replay and no replay ended without a verdict (timed out, cancelled), else
 *   `inconclusive`.
 */
export function judgeInstance(outcomes: Outcome[], recorded?: RecordedFailure): Judgement {
  const counts: RevalidationCounts = { baselineFailed: 0, baselinePassed: 0, referencePassed: 0, referenceFailed: 0, infra: 0, invalid: 0 };
  const broken: { side: Outcome['kind']; cause: BrokenCause }[] = [];
  const blocked: { side: Outcome['kind']; message: string }[] = [];
  const readings: Record<Outcome['kind'], Reading[]> = { baseline: [], reference: [] };
  for (const outcome of outcomes) {
    const cause = brokenCause(outcome);
    if (cause !== null) {
      broken.push({ side: outcome.kind, cause });
      continue;
    }
    if (outcome.outcome === 'infra_error') {
      counts.infra += 1;
      if (outcome.reason === 'not_replayable') blocked.push({ side: outcome.kind, message: outcome.errorMessage ?? 'the backend cannot run this workflow' });
      continue;
    }
    if (outcome.verdict !== 'passed' && outcome.verdict !== 'failed') {
      counts.invalid += 1;
      continue;
    }
    if (outcome.kind === 'baseline') {
      counts[outcome.verdict === 'failed' ? 'baselineFailed' : 'baselinePassed'] += 1;
      readings.baseline.push(readBaseline(outcome, recorded));
    } else {
      counts[outcome.verdict === 'passed' ? 'referencePassed' : 'referenceFailed'] += 1;
      readings.reference.push(outcome.verdict === 'passed' ? { kind: 'right' } : { kind: 'wrong', finding: 'reference_fails', jobs: uniq((outcome.failedJobs ?? []).map((job) => job.job)), steps: [], types: uniq(outcome.labels ?? []) });
    }
  }
  if (broken.length > 0) {
    const evidence = broken.map(({ side, cause }): Evidence => ({ finding: cause.finding, side, message: cause.message }));
    return { result: 'broken', counts, evidence: dedupe(evidence), flakiness: [] };
  }
  if (blocked.length > 0) {
    return { result: 'unreplayable', counts, evidence: dedupe(blocked.map(({ side, message }): Evidence => ({ finding: 'preflight_blocked', side, message }))), flakiness: [] };
  }
  const sides = new Set(outcomes.map((outcome) => outcome.kind));
  if (outcomes.length > 0 && counts.infra === outcomes.length && sides.size === 2) {
    const messages = uniq(outcomes.map((outcome) => `${outcome.reason ?? 'infra_error'}${outcome.errorMessage ? `: ${outcome.errorMessage}` : ''}`));
    return { result: 'unreplayable', counts, evidence: [{ finding: 'infrastructure', side: 'baseline', message: `every replay ended infra_error (${messages.join('; ')})`, replays: counts.infra, of: outcomes.length }], flakiness: [] };
  }
  const evidence: Evidence[] = [];
  const flakiness: Flakiness[] = [];
  let flaky = false;
  let drifted = false;
  for (const side of ['baseline', 'reference'] as const) {
    const valid = readings[side];
    const wrong = valid.filter((reading): reading is Extract<Reading, { kind: 'wrong' }> => reading.kind === 'wrong');
    if (wrong.length === 0) continue;
    const disagreeing = Math.min(wrong.length, valid.length - wrong.length);
    if (disagreeing > 0) {
      flaky = true;
      flakiness.push({ side, disagreeing, of: valid.length, share: disagreeing / valid.length });
    } else drifted = true;
    for (const finding of uniq(wrong.map((reading) => reading.finding)) as Evidence['finding'][]) {
      const those = wrong.filter((reading) => reading.finding === finding);
      const all = disagreeing === 0;
      evidence.push({
        finding: all ? finding : 'disagreement',
        side,
        message: `${FINDING_TEXT[finding] ?? finding} in ${those.length} of ${valid.length} replays${all ? '' : ' (the others behave)'}`,
        replays: those.length,
        of: valid.length,
        ...(side === 'baseline' && recorded !== undefined && (finding === 'other_jobs' || finding === 'other_types') ? { expected: { jobs: recorded.jobs, types: recorded.types } } : {}),
        observed: { jobs: uniq(those.flatMap((r) => r.jobs)), steps: uniq(those.flatMap((r) => r.steps)), types: uniq(those.flatMap((r) => r.types)) },
      });
    }
  }
  if (flaky) return { result: 'flaky', counts, evidence, flakiness };
  if (drifted) return { result: 'drifted', counts, evidence, flakiness };
  const healthy = readings.baseline.length > 0 && readings.reference.length > 0 && counts.invalid === 0;
  return { result: healthy ? 'healthy' : 'inconclusive', counts, evidence, flakiness };
}

function dedupe(evidence: Evidence[]): Evidence[] {
  const seen = new Set<string>();
  return evidence.filter((entry) => {
    const key = `${entry.finding}|${entry.side}|${entry.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
