import { LEARNED_TOOL } from './learned/learned-tool.js';

/** A label's type as shown to people: `Test Failure`, or `Test Failure (learned)` when the learned fallback gave it and no rule did. */
export function labelTypeText(label: { type: string; tool?: string | null | undefined }): string {
  return label.tool === LEARNED_TOOL ? `${label.type} (learned)` : label.type;
}

/** Whether the learned fallback, not a rule, gave the label. */
export const isLearnedLabel = (label: { tool?: string | null | undefined }): boolean => label.tool === LEARNED_TOOL;
