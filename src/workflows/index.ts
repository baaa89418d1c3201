export type {
  ReportAction, ReportEntry, MatrixStrategy, StandardizeOptions, StandardizeInput, StandardizeResult, StandardizeLintedResult,
  LintFinding, WorkflowLinter, RemovalRule, SiblingWorkflow, PackageIndexService,
} from './types.js';
export { standardizeWorkflow, standardizeWorkflowText, DEFAULT_BRANCH_PATTERN, DEFAULT_TIMEOUT_MINUTES } from './standardize/index.js';
export { applyRunnerLabels, applyRunnerLabelsToJobs } from './standardize/runner-labels.js';
export { DUMMY_CREDENTIAL } from './standardize/secrets.js';
export { pinTimestamp } from './standardize/settings.js';
export { selectWorkflowFilesToDelete, calledWorkflows, isWorkflowFile, deletionReport, type WorkflowFile } from './siblings.js';
export { renderReport } from './report.js';
export { createWorkflowLinter, lintWorkflow, lintReport, resilientLinter, LINTER_CRASH_KIND } from './lint.js';
export { renderTemplate, renderTemplateText, listTemplates, templatePlaceholders, defaultTemplatesDir, type TemplateOptions } from './templates.js';
export {
  preflightWorkflow, renderBlockers, summarizeBlockers, GITHUB_ACTIONS_CAPABILITIES,
  type Blocker, type BlockerCode, type BackendCapabilities, type PreflightWorkflowInput, type WorkflowText,
} from './preflight/index.js';
