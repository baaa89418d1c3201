import { classifyJob, type JobClassification } from '../classify-job.js';
import type { ExecutorJobReport } from '../../domain/executor-report.js';
import type { LogInput, StepInput } from '../types.js';
import { judgeJob, type JobJudgement, type JudgeStep } from './judge-job.js';

/** Output lines kept per failing step for the outcome rules (the classifier keeps its own window). */
export const JUDGE_TAIL_LINES = 2000;

export interface JudgeJobLogInput {
  status?: string | null;
  conclusion: string | null;
  steps: readonly (JudgeStep & Pick<StepInput, 'startedAt' | 'completedAt'>)[];
  /** The job's log, or null when it has none. */
  log: LogInput | null;
  /** What the backend's executor observed (local backend; see JudgeJobInput.executor). */
  executor?: ExecutorJobReport | null;
}

/**
 * Classifies a job's log into the 12 error types and judges its outcome in one pass over the log. Without a log
 * the outcome is decided from the conclusion and the steps alone (classification is then null).
 */
export async function judgeJobLog(input: JudgeJobLogInput): Promise<{ judgement: JobJudgement | null; classification: JobClassification | null }> {
  if (input.log === null) return { judgement: judgeJob({ ...input, log: null }), classification: null };
  const classification = await classifyJob({
    log: input.log,
    jobConclusion: input.conclusion,
    steps: input.steps.map((step) => ({ number: step.number, name: step.name, conclusion: step.conclusion, startedAt: step.startedAt ?? null, completedAt: step.completedAt ?? null })),
    keepTailLines: JUDGE_TAIL_LINES,
  });
  return { judgement: judgeJob({ ...input, log: classification.parsed }), classification };
}
