/** Benchmark branch: `ci-replay/<run-or-kind>/<submission-id>`, plus `-a<n>` for re-queued attempts; never reused. */
export function branchName(submission: { id: string; runId: string | null; kind: string; attempt: number }): string {
  const scope = submission.runId ?? submission.kind;
  return `ci-replay/${scope}/${submission.id}${submission.attempt > 1 ? `-a${submission.attempt}` : ''}`;
}
