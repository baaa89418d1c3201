/** Anti-tampering: which of a candidate's edits may stand in the benchmark commit, per dataset policy. */
export { DEFAULT_PROTECTION, PROTECTIONS, defaultPolicy, isProtection, validateProtectedPaths, type DatasetPolicy, type Protection } from './policy.js';
export { defaultRuleOf, type DefaultRule } from './default-rules.js';
export { compareValidation, type WorkflowComparison } from './compare-workflows.js';
export { mergeProtectedSections, type SectionDecision } from './merge-sections.js';
export { decideProtection, type DecideInput, type PathDecision, type Side } from './decide.js';
export { protectPatch, withKeptWorkflows, type ProtectInput, type ProtectResult, type ProtectionRecord } from './protect-patch.js';
export { renderProtection } from './render.js';
export { getDatasetPolicy, loadDatasetPolicy, updateDatasetPolicy, type PolicyUpdate } from './dataset-policy.js';
