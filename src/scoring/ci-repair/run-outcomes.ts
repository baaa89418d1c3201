import { classifyOutcome, latestSubmissions } from './outcome.js';
import type { CiInstance, CiRunInput, CiSubmissionOutcome, InstanceOutcome } from './types.js';

/** One instance's result in one run. */
export interface InstanceResult {
  outcome: InstanceOutcome;
  /** The latest submission, when there is one. */
  submission: CiSubmissionOutcome | undefined;
}

/** A run resolved against the scope: one result per in-scope instance, in scope order. */
export interface RunOutcomes {
  id: string;
  label: string;
  results: InstanceResult[];
  /** Submissions whose instance is not in scope (unknown or excluded as unhealthy). */
  ignoredSubmissions: number;
}

/** Resolves each in-scope instance to its latest submission in the run and classifies it. */
export function resolveRun(instances: readonly CiInstance[], run: CiRunInput): RunOutcomes {
  const latest = latestSubmissions(run.submissions);
  const inScope = new Set(instances.map((instance) => instance.id));
  const ignoredSubmissions = run.submissions.filter((submission) => !inScope.has(submission.instanceId)).length;
  const results = instances.map((instance): InstanceResult => {
    const submission = latest.get(instance.id);
    return { outcome: classifyOutcome(submission), submission };
  });
  return { id: run.id, label: run.label, results, ignoredSubmissions };
}
