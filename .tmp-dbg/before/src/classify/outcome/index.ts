export { judgeJob, type JobJudgement, type JudgeJobInput, type JudgeStep } from './judge-job.js';
export { judgeJobLog, JUDGE_TAIL_LINES, type JudgeJobLogInput } from './judge-job-log.js';
export { judgeRun, readEvidence, type JudgedJob, type JudgeRunInput, type RunJudgement, type RunOutcome } from './judge-run.js';
export { OUTCOME_RULES, NETWORK_ERROR, type Issuer, type OutcomeRule, type Precedence, type RuleScope } from './rules/index.js';
export { RUNNER_TOOLS, isRunnerTool } from './runner-tools.js';
