import type { PublishInput } from '../backends/ci-backend.js';
import type { InstanceRow, SubmissionRow } from '../db/index.js';
import { applyPatch, readFilesAt } from '../git/index.js';
import { loadDatasetPolicy, protectPatch, renderProtection, withKeptWorkflows, type ProtectionRecord } from '../protection/index.js';
import { applyRunnerLabels, deletionReport, isWorkflowFile, renderReport, lintReport, renderTemplate, selectWorkflowFilesToDelete, standardizeWorkflowText, type ReportEntry, type StandardizeResult } from '../workflows/index.js';
import type { PipelineDeps } from './context.js';
import type { PreflightRecord } from './preflight.js';

export const COMMIT_IDENTITY = { name: 'ci-replay', email: 'ci-replay@users.noreply.github.com' };

export interface PreparedCommit {
  ok: true;
  gitDir: string;
  commitSha: string;
  workflow: { path: string; text: string };
  /** Reusable workflows the target calls, as installed in the commit (what the preflight reads besides the target). */
  callees: { path: string; text: string }[];
  changes: { status: string; path: string; oldPath?: string }[];
  revertedFiles: string[];
  standardization: StandardizationRecord;
}

export interface StandardizationRecord {
  report: ReportEntry[];
  markdown: string;
  lint: { line: number; column: number; message: string; kind: string }[];
  deletedWorkflows: string[];
  /** Paths the patch changed that standardization then overwrote (the standardized workflow wins). */
  overriddenPatchedPaths: string[];
  /** What the backend's preflight found (set by the prepare step; `prepare --dry-run` shows it too). */
  preflight?: PreflightRecord;
  /** The dataset's anti-tampering policy and every path whose edit it undid, with why. */
  protection: ProtectionRecord;
}

/**
 * Where an instance's repository is fetched from: its `upstream_url`, else GitHub; the fork owner the dataset row
 * named (when the import mapped it to another upstream owner) is where missing commits are looked for last.
 */
export function upstreamOf(instance: Pick<InstanceRow, 'repoOwner' | 'repoName' | 'upstreamUrl'> & { sourceRepoOwner?: string | null }): { owner: string; name: string; url: string; forkOwners: string[] } {
  return {
    owner: instance.repoOwner,
    name: instance.repoName,
    url: instance.upstreamUrl ?? `https://github.com/${instance.repoOwner}/${instance.repoName}.git`,
    forkOwners: instance.sourceRepoOwner == null ? [] : [instance.sourceRepoOwner],
  };
}

/**
 * Builds the benchmark commit of a submission without pushing it: fetch sha_fail into the mirror, standardize
 * the instance's workflow, apply the patch (3-way), revert protected paths, install the standardized workflow
 * and delete sibling workflows, commit with a fixed identity and the submission's date. `runnerLabels`: the pool
 * account's self-hosted runner labels, put in place of the hosted Linux images of every installed workflow.
 */
export async function buildBenchmarkCommit(
  deps: Pick<PipelineDeps, 'mirrors' | 'config' | 'linter' | 'repos'>,
  instance: InstanceRow,
  submission: Pick<SubmissionRow, 'id' | 'patch' | 'kind' | 'createdAt'> & { subtaskId?: string | null },
  options: { runnerLabels?: readonly string[] } = {},
): Promise<PreparedCommit | { ok: false; message: string }> {
  const runnerLabels = options.runnerLabels ?? [];
  const gitDir = await deps.mirrors.ensureCommits(upstreamOf(instance), [instance.shaFail]);
  const commitOptions = {
    gitDir,
    baseSha: instance.shaFail,
    patch: submission.patch,
    identity: COMMIT_IDENTITY,
    date: submission.createdAt,
    message: `ci-replay ${submission.kind} for instance ${instance.id}\n\nSubmission: ${submission.id}\n`,
  };
  // The patch is applied first to decide which of its edits stand; a kept edit of the target workflow is what gets standardized.
  const protection = await protectPatch({ gitDir, instance, submission, policy: await loadDatasetPolicy(deps.repos.datasetPolicies, instance.dataset), identity: COMMIT_IDENTITY });
  if (!protection.ok) return { ok: false, message: protection.message };
  const patchedWorkflow = protection.keptWorkflows.get(instance.workflowPath) ?? null;
  const read = await readFilesAt(gitDir, instance.shaFail, '.github/workflows');
  const files = withKeptWorkflows(read.map((file) => ({ path: file.path, text: file.bytes.toString('utf8') })), protection.keptWorkflows);
  // The commit's other workflows let the standardizer judge local reusable callees by what they do, and give a
  // reusable workflow run as the entry the inputs its callers pass.
  const unlabelled = await standardizedWorkflow(deps, instance, patchedWorkflow, files);
  const labelled = applyRunnerLabels(unlabelled.text, instance.workflowPath, runnerLabels);
  const standardized = { ...unlabelled, text: labelled.text, report: [...unlabelled.report, ...labelled.report] };
  const lint = deps.linter(standardized.text, instance.workflowPath);
  const withTarget = files.some((file) => file.path === instance.workflowPath) ? files : [...files, { path: instance.workflowPath, text: standardized.text }];
  const deletedWorkflows = selectWorkflowFilesToDelete(instance.workflowPath, withTarget);
  // Reusable workflows the target calls stay; they are standardized as callees (no trigger of their own).
  const callees = withTarget.filter((file) => file.path !== instance.workflowPath && !deletedWorkflows.includes(file.path) && isWorkflowFile(file.path));
  const calleeOverrides = callees.flatMap((file) => {
    try {
      const callee = standardizeWorkflowText({
        text: file.text,
        path: file.path,
        workflows: withTarget,
        options: { matrixStrategy: deps.config.standardize.matrixStrategy, role: 'callee', upstreamRepository: `${instance.repoOwner}/${instance.repoName}` },
      });
      const calleeLabelled = applyRunnerLabels(callee.text, file.path, runnerLabels);
      standardized.report.push(...[...callee.report, ...calleeLabelled.report].map((entry) => ({ ...entry, target: `${file.path}: ${entry.target}` })));
      return [{ path: file.path, content: calleeLabelled.text }];
    } catch {
      return [];
    }
  });
  const applied = await applyPatch({
    ...commitOptions,
    revertPaths: protection.revertPaths,
    overrides: [...protection.rewrites, { path: instance.workflowPath, content: standardized.text }, ...calleeOverrides, ...deletedWorkflows.map((path) => ({ path, content: null }))],
  });
  if (!applied.ok) return { ok: false, message: applied.message };
  const overridden = applied.overriddenPatchedPaths.filter((path) => !protection.undone.includes(path));
  const report = [
    ...standardized.report,
    ...deletionReport(deletedWorkflows, instance.workflowPath),
    ...lintReport(lint),
    ...overridden.map((path) => ({ action: 'rewrote-step' as const, target: path, reason: 'the patch changed this workflow file; standardization was applied after the patch and wins' })),
  ];
  return {
    ok: true,
    gitDir,
    commitSha: applied.commitSha,
    workflow: { path: instance.workflowPath, text: standardized.text },
    callees: callees.map((file) => ({ path: file.path, text: calleeOverrides.find((override) => override.path === file.path)?.content ?? file.text })),
    changes: applied.changes,
    revertedFiles: [...new Set([...applied.revertedFiles, ...protection.undone])].sort(),
    standardization: {
      report,
      markdown: `${renderReport(report)}\n${renderProtection(protection.record)}`,
      lint: lint.map((finding) => ({ line: finding.line, column: finding.column, message: finding.message, kind: finding.kind })),
      deletedWorkflows,
      overriddenPatchedPaths: overridden,
      protection: protection.record,
    },
  };
}

/**
 * The workflow installed in the benchmark commit: a template from workflows-templates/ when the instance names
 * one (rendered with its Python version, install command and template values), else the instance's own
 * workflow run through the standardizer.
 */
async function standardizedWorkflow(
  deps: Pick<PipelineDeps, 'config'>,
  instance: InstanceRow,
  patchedWorkflow: string | null,
  workflows: readonly { path: string; text: string }[],
): Promise<StandardizeResult> {
  const metadata = (instance.metadata ?? {}) as { workflowTemplate?: string; templateValues?: Record<string, string> };
  if (metadata.workflowTemplate !== undefined) {
    const values: Record<string, string> = {
      ...(instance.pythonVersion === null ? {} : { python_version: instance.pythonVersion }),
      ...(instance.installCommand === null ? {} : { install_command: instance.installCommand }),
      ...metadata.templateValues,
    };
    const text = await renderTemplate(metadata.workflowTemplate, values);
    return { text, report: [{ action: 'rewrote-step', target: instance.workflowPath, reason: `installed the standardized template ${metadata.workflowTemplate} instead of the instance's workflow` }] };
  }
  const logs = Array.isArray(instance.logs) ? (instance.logs as { step_name?: unknown }[]) : [];
  const result = standardizeWorkflowText({
    text: patchedWorkflow ?? instance.workflow,
    path: instance.workflowPath,
    workflows,
    options: {
      upstreamRepository: `${instance.repoOwner}/${instance.repoName}`,
      matrixStrategy: deps.config.standardize.matrixStrategy,
      failedJobNames: logs.map((log) => String(log.step_name ?? '')).filter(Boolean),
      ...(deps.config.standardize.pinDependencies && instance.commitDate !== null ? { pinDate: instance.commitDate } : {}),
      ...(deps.config.standardize.pinIndexUrl !== undefined ? { indexUrl: deps.config.standardize.pinIndexUrl } : {}),
    },
  });
  if (patchedWorkflow === null) return result;
  return {
    text: result.text,
    report: [{ action: 'rewrote-step', target: instance.workflowPath, reason: 'the patch changed this workflow: the patched workflow was standardized, and standardization wins where they differ' }, ...result.report],
  };
}

/** What the backend publishes and runs for a prepared commit. */
export function publishInput(submissionId: string, instance: InstanceRow, prepared: PreparedCommit, branch: string): PublishInput {
  return {
    submissionId,
    instance: { id: instance.id, repoOwner: instance.repoOwner, repoName: instance.repoName, upstreamUrl: upstreamOf(instance).url, shaFail: instance.shaFail },
    gitDir: prepared.gitDir,
    commitSha: prepared.commitSha,
    branch,
    workflow: prepared.workflow,
  };
}
