import { expect } from 'vitest';
import { classifyJob } from '../../../src/classify/index.js';

/**
 * The sorted label types the RULES give a failed job's log: the rule tests assert what rules read, so the learned
 * fallback (which labels what no rule explains) is off here; learned-fallback.test.ts tests it.
 */
export const logTypes = async (log: string, jobConclusion = 'failure'): Promise<string[]> =>
  (await classifyJob({ log, jobConclusion, learnedFallback: false })).labels.map((label) => label.type).sort();

/** The sorted label types of output as a benchmark tail stores it: the lines, then the runner's exit line. */
export const tailTypes = (lines: string[]): Promise<string[]> => logTypes([...lines, 'Process completed with exit code 1.'].join('\n'));

/** For `it.each` rows `[what, lines, types]`: the rules read the lines (as a benchmark tail stores them) as exactly these types. */
export const readsAs = async (_what: string, lines: readonly string[], expected: readonly string[]): Promise<void> => {
  expect(await tailTypes([...lines])).toEqual([...expected]);
};
