import type { InstanceRepository, InstanceRow } from '../db/index.js';
import { invalidInput, notFound } from '../errors.js';
import { CHECK_PROBLEMS, checkInstance, type CheckOptions, type CheckProblem, type CommitCheck, type InstanceCheckDeps, type InstanceCheckResult, type StepCheck } from './index.js';

/** Which instances to check: all, one repository's, or the ids given. */
export type CheckSelection = { all: true } | { repo: string } | { instanceIds: readonly string[] };

/** Counts over checked instances: by problem, and failures per check. */
export interface CheckSummary {
  total: number;
  byProblem: Record<CheckProblem, number>;
  failed: { commits: number; groundTruth: number; workflow: number; preflight: number };
  commitSources: Record<string, number>;
}

const PAGE = 500;

/** The instances a selection names; an unknown id or an empty repository is a 404 / invalid input. */
export async function selectInstances(repository: InstanceRepository, selection: CheckSelection): Promise<InstanceRow[]> {
  if ('instanceIds' in selection) {
    const rows: InstanceRow[] = [];
    for (const id of selection.instanceIds) {
      const row = await repository.get(id);
      if (row === null) throw notFound('instance', id);
      rows.push(row);
    }
    return rows;
  }
  if ('all' in selection) return repository.listAll();
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(selection.repo)) throw invalidInput('invalid_arguments', `--repo must be owner/name, got "${selection.repo}"`);
  const rows: InstanceRow[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await repository.list({ repo: selection.repo, limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
    rows.push(...page);
    if (page.length < PAGE) break;
    cursor = page.at(-1)?.id;
  }
  if (rows.length === 0) throw invalidInput('no_instances', `no instance of ${selection.repo} is in the catalog`, undefined, 404);
  return rows;
}

/** Checks instances one after the other (they share mirrors; the machine's git is the bottleneck). */
export async function checkInstances(
  deps: InstanceCheckDeps,
  instances: readonly InstanceRow[],
  opts: CheckOptions = {},
  onResult?: (result: InstanceCheckResult) => void,
): Promise<InstanceCheckResult[]> {
  const results: InstanceCheckResult[] = [];
  for (const instance of instances) {
    const result = await checkInstance(deps, instance, opts);
    onResult?.(result);
    results.push(result);
  }
  return results;
}

export function summarizeChecks(results: readonly InstanceCheckResult[]): CheckSummary {
  const byProblem = Object.fromEntries(CHECK_PROBLEMS.map((problem) => [problem, 0])) as Record<CheckProblem, number>;
  const failed = { commits: 0, groundTruth: 0, workflow: 0, preflight: 0 };
  const commitSources: Record<string, number> = {};
  for (const result of results) {
    byProblem[result.problem] += 1;
    const commits = [result.commits.shaFail, result.commits.shaSuccess].filter((check): check is CommitCheck => check !== null);
    if (result.problem !== 'unreachable' && commits.some((check) => !check.found)) failed.commits += 1;
    if (result.groundTruth.status === 'failed') failed.groundTruth += 1;
    if (result.workflow.status === 'failed') failed.workflow += 1;
    if (result.preflight.status === 'failed') failed.preflight += 1;
    for (const check of commits) if (check.source !== null) commitSources[check.source] = (commitSources[check.source] ?? 0) + 1;
  }
  return { total: results.length, byProblem, failed, commitSources };
}

const commitCell = (check: CommitCheck | null): string => (check === null ? '-' : check.found ? `ok (${check.source ?? '?'})` : 'missing');
const stepCell = (check: StepCheck): string => check.status;

/** The check as a table (one row per instance), the counts, then a reason per failing instance. */
export function renderCheckTable(results: readonly InstanceCheckResult[]): string[] {
  const rows = [['instance', 'sha_fail', 'sha_success', 'ground truth', 'workflow', 'preflight', 'result']];
  for (const result of results) {
    rows.push([result.instanceId, commitCell(result.commits.shaFail), commitCell(result.commits.shaSuccess), stepCell(result.groundTruth), stepCell(result.workflow), stepCell(result.preflight), result.problem]);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
  const summary = summarizeChecks(results);
  const sources = Object.entries(summary.commitSources).map(([source, count]) => `${source} ${count}`).join(', ');
  lines.push('', `${summary.total} instance(s): ${CHECK_PROBLEMS.map((problem) => `${summary.byProblem[problem]} ${problem}`).join(', ')}`);
  lines.push(`failing checks: commits ${summary.failed.commits}, ground truth ${summary.failed.groundTruth}, workflow ${summary.failed.workflow}, preflight ${summary.failed.preflight}${sources === '' ? '' : `; commits found on: ${sources}`}`);
  const failing = results.filter((result) => !result.ok);
  if (failing.length > 0) {
    lines.push('', 'reasons:');
    for (const result of failing) {
      lines.push(`  ${result.instanceId} (${result.problem}): ${result.reasons[0] ?? ''}`);
      for (const reason of result.reasons.slice(1)) lines.push(`    also: ${reason}`);
    }
  }
  return lines;
}
