import { isLearnedLabel } from '../classify/label-type-text.js';

/**
 * A submission's error types: the distinct types of its jobs' labels, in first-seen order. Labels of the learned
 * fallback (tool `learned-fallback`) stay on their jobs, shown as learned, and are left out here: revalidation and
 * the score tables read these types, and they rest on rules only.
 */
export const observedErrorTypes = (labels: readonly { type: string; tool: string | null }[]): string[] => [
  ...new Set(labels.filter((label) => !isLearnedLabel(label)).map((label) => label.type)),
];
