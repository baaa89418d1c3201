/** Scheduling classes, highest first: a waiting submission of a higher class is always started before a lower one. */
export const PRIORITIES = ['interactive', 'campaign', 'revalidation'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const priorityRank = (priority: Priority): number => PRIORITIES.indexOf(priority);

/**
 * The class of a submission: re-validations are identified as they are everywhere else (kind `revalidation`);
 * a submission that belongs to a run (a batch or campaign) is `campaign`; a single submission without a run is
 * `interactive`.
 */
export function priorityOf(submission: { kind: string; runId: string | null }): Priority {
  if (submission.kind === 'revalidation') return 'revalidation';
  return submission.runId === null ? 'interactive' : 'campaign';
}

/** The fair-share key: runs of the same class share an account's capacity equally; run-less submissions share one key. */
export const fairShareKey = (submission: { runId: string | null; kind: string }): string => submission.runId ?? `-${submission.kind}`;
