export { classifyJob, labelTypes, repoRelativePath, type ClassifyJobInput, type JobClassification } from './classify-job.js';
export { LOG_READ_BYTES, openLogFile } from './open-log-file.js';
export { parseLog, type ParseLogOptions } from './parse-log.js';
export { RULES, CMD, type Rule, type RuleState, type ParsedFinding } from './rules/index.js';
export type * from './types.js';
export { segmentLogs, type LogSegment, type SegmentLogInput, type SegmentLogsOptions, type SegmentLogsResult } from './segment-logs.js';
export { LEARNED_TOOL } from './learned/learned-tool.js';
export { isLearnedLabel, labelTypeText } from './label-type-text.js';
