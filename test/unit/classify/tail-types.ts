import { classifyJob } from '../../../src/classify/index.js';

/** The sorted label types of a failed job's log. */
export const logTypes = async (log: string, jobConclusion = 'failure'): Promise<string[]> =>
  (await classifyJob({ log, jobConclusion })).labels.map((label) => label.type).sort();

/** The sorted label types of output as a benchmark tail stores it: the lines, then the runner's exit line. */
export const tailTypes = (lines: string[]): Promise<string[]> => logTypes([...lines, 'Process completed with exit code 1.'].join('\n'));
