import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { InstanceInput } from '../db/index.js';
import { normalizeErrorType } from '../domain/error-types.js';
import { DEFAULT_HYGIENE_LIMITS, findInputProblem } from '../util/input-hygiene.js';
import { mapOwner, type OwnerMap } from './owner-map.js';

/** Fields of a CI-Repair-Bench row, plus ci-replay's optional extensions (upstream_url, protected_paths, …). */
const jsonList = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }, z.array(item));

const sha = z.string().trim().regex(/^[0-9a-f]{7,64}$/i, 'must be a commit SHA (hex)');
const name = z.string().trim().regex(/^[A-Za-z0-9_.-]+$/, 'must be a GitHub owner or repository name');

export const instanceRowSchema = z.object({
  id: z.union([z.string().trim().min(1).max(200), z.number().int().nonnegative()]).transform(String),
  language: z.string().default('Python'),
  repo_owner: name,
  repo_name: name,
  head_branch: z.string().nullish(),
  workflow_name: z.string().nullish(),
  workflow_filename: z.string().nullish(),
  workflow_path: z.string().trim().regex(/^\.github\/workflows\/[^/]+\.ya?ml$/, 'must be a path under .github/workflows/'),
  workflow: z.string().min(1, 'is empty'),
  sha_fail: sha,
  sha_success: sha.nullish(),
  diff: z.string().default(''),
  changed_files: jsonList(z.string()).default([]),
  commit_date: z.union([z.string(), z.number()]).nullish(),
  logs: jsonList(z.object({ step_name: z.string(), log: z.string() })).default([]),
  error_type: z.union([jsonList(z.string()), z.string()]).default([]),
  dataset: z.string().optional(),
  upstream_url: z.string().nullish(),
  protected_paths: jsonList(z.string()).default([]),
  oracle_sha: sha.nullish(),
  subtasks: jsonList(z.unknown()).nullish(),
  base_passing_tests: jsonList(z.string()).default([]),
  python_version: z.string().nullish(),
  install_command: z.string().nullish(),
  /** Ground truth and stored logs readable by submitters (ci-replay extension; absent keeps the stored flag). */
  public: z.boolean().optional(),
  /** Install this template from workflows-templates/ instead of the instance's own workflow. */
  workflow_template: z.string().regex(/^[a-z0-9-]+$/, 'must be a template name from workflows-templates/').nullish(),
  template_values: z
    .preprocess((value) => {
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        return value;
      }
    }, z.record(z.string(), z.string()))
    .default({}),
});

export type InstanceRow = z.input<typeof instanceRowSchema>;

export interface RowError {
  line: number;
  id: string | null;
  code: string;
  message: string;
}

export interface ParseOptions {
  /** Replaces repo_owner (some released rows name a fork's owner); the released owner is kept as sourceRepoOwner. */
  upstreamOwner?: string;
  /** Dataset owner → upstream owner per repository (wins over upstreamOwner for the repositories it names). */
  ownerMap?: OwnerMap;
  dataset?: string;
}

export type ParseResult = { ok: true; instance: InstanceInput } | { ok: false; error: RowError };

/** Parses one JSONL line into an instance, or a row error that says what is wrong. */
export function parseInstanceLine(text: string, line: number, options: ParseOptions = {}): ParseResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: { line, id: null, code: 'invalid_json', message: `not valid JSON: ${(error as Error).message}` } };
  }
  return parseInstanceObject(raw, line, options);
}

export function parseInstanceObject(raw: unknown, line: number, options: ParseOptions = {}): ParseResult {
  // NUL, lone surrogates, deep nesting, oversized fields (the workflow, the diff and the logs are documents: the line limit bounds them).
  const unclean = findInputProblem(raw, 'row', DEFAULT_HYGIENE_LIMITS);
  const rawId = typeof raw === 'object' && raw !== null && 'id' in raw && unclean === null ? String((raw as { id: unknown }).id) : null;
  if (unclean !== null) return { ok: false, error: { line, id: rawId, code: unclean.code, message: unclean.message } };
  const parsed = instanceRowSchema.safeParse(raw);
  if (!parsed.success) {
    const message = parsed.error.issues.map((issue) => describeIssue(raw, issue)).join('; ');
    return { ok: false, error: { line, id: rawId, code: 'invalid_row', message } };
  }
  const row = parsed.data;
  const rawLabels = (Array.isArray(row.error_type) ? row.error_type : row.error_type.split(/[,;]/)).map((label) => label.trim()).filter(Boolean);
  const labels: string[] = [];
  for (const label of rawLabels) {
    const normalized = normalizeErrorType(label);
    if (normalized === undefined) {
      return { ok: false, error: { line, id: row.id, code: 'unknown_label', message: `error_type "${label}" is not one of the 12 CI error types or their known aliases` } };
    }
    if (!labels.includes(normalized)) labels.push(normalized);
  }
  const commitDate = parseDate(row.commit_date);
  if (commitDate === 'invalid') {
    return { ok: false, error: { line, id: row.id, code: 'invalid_row', message: `commit_date: ${String(row.commit_date)} is not a date` } };
  }
  const owner = mapOwner(options.ownerMap, row.repo_owner, row.repo_name) ?? options.upstreamOwner ?? row.repo_owner;
  const base = {
    id: row.id,
    dataset: row.dataset ?? options.dataset ?? 'ci-repair-bench',
    language: row.language,
    repoOwner: owner,
    repoName: row.repo_name,
    sourceRepoOwner: owner === row.repo_owner ? null : row.repo_owner,
    upstreamUrl: row.upstream_url ?? null,
    headBranch: row.head_branch ?? null,
    workflowName: row.workflow_name ?? null,
    workflowFilename: row.workflow_filename ?? null,
    workflowPath: row.workflow_path,
    workflow: row.workflow,
    shaFail: row.sha_fail.toLowerCase(),
    shaSuccess: row.sha_success?.toLowerCase() ?? null,
    diff: row.diff,
    changedFiles: row.changed_files,
    commitDate,
    logs: row.logs,
    labels,
    rawLabels,
    protectedPaths: row.protected_paths,
    oracleSha: row.oracle_sha?.toLowerCase() ?? null,
    subtasks: row.subtasks ?? null,
    basePassingTests: row.base_passing_tests,
    pythonVersion: row.python_version ?? null,
    installCommand: row.install_command ?? null,
    metadata: row.workflow_template == null ? {} : { workflowTemplate: row.workflow_template, templateValues: row.template_values },
    ...(row.public !== undefined ? { public: row.public } : {}),
  };
  const contentHash = createHash('sha256').update(JSON.stringify(base)).digest('hex');
  return { ok: true, instance: { ...base, contentHash } };
}

function parseDate(value: string | number | null | undefined): Date | null | 'invalid' {
  if (value === null || value === undefined || value === '') return null;
  const date = typeof value === 'number' ? new Date(value > 1e12 ? value : value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? 'invalid' : date;
}

/** One schema problem as a person reads it: a field the row lacks is `id is required`, others `field: what is wrong`. */
function describeIssue(raw: unknown, issue: z.core.$ZodIssue): string {
  const field = issue.path.join('.');
  if (field === '') return `row: ${raw === null || typeof raw !== 'object' || Array.isArray(raw) ? 'must be a JSON object' : issue.message}`;
  let value: unknown = raw;
  for (const key of issue.path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined;
  if (value === undefined || (value === null && issue.path.length === 1 && REQUIRED.has(field))) return `${field} is required`;
  return `${field}: ${issue.message}`;
}

const REQUIRED = new Set(['id', 'repo_owner', 'repo_name', 'workflow_path', 'workflow', 'sha_fail']);
