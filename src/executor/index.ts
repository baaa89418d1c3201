export { runWorkflow } from './run-workflow/index.js';
export type { Annotation, ArtifactResult, JobConclusion, JobResult, RunWorkflowOptions, RunWorkflowResult } from './types.js';
export { parseWorkflow } from './workflow-model.js';
export type { JobDef, StepDef, WorkflowDef } from './workflow-model.js';
export { logTimestamp } from './log-writer.js';
