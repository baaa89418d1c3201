/**
 * Measures the standardizer on the real-workflow corpus (test/fixtures/workflows/corpus): which labeled jobs it keeps
 * and drops, which nothing-to-validate workflows it refuses, secrets left, actionlint findings it adds, crashes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, parseDocument } from 'yaml';
import { isAppError } from '../../../src/errors.js';
import { standardizeWorkflowText, type LintFinding, type StandardizeResult, type WorkflowLinter } from '../../../src/workflows/index.js';

export const CORPUS_DIR = join(import.meta.dirname, '../../fixtures/workflows/corpus');

export interface JobExpectation {
  expect: 'keep' | 'drop';
  reason: string;
}

export interface CorpusEntry {
  file: string;
  repo: string;
  path: string;
  commit: string;
  role?: 'context';
  nothingToValidate?: boolean;
  jobs?: Record<string, JobExpectation>;
}

export interface LoadedEntry extends CorpusEntry {
  text: string;
}

export function loadCorpus(): LoadedEntry[] {
  const raw: unknown = parseDocument(readFileSync(join(CORPUS_DIR, 'expectations.yaml'), 'utf8')).toJSON();
  const workflows = (raw as { workflows: CorpusEntry[] }).workflows;
  return workflows.map((entry) => ({ ...entry, text: readFileSync(join(CORPUS_DIR, entry.file), 'utf8') }));
}

export type Outcome =
  | { kind: 'standardized'; result: StandardizeResult; keptJobs: Set<string> }
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'crashed'; error: string };

export type Standardize = (entry: LoadedEntry, corpus: readonly LoadedEntry[]) => StandardizeResult;

/** The workflow files of the same repository in the corpus (what the pipeline passes as the commit's other workflows). */
export function siblingsOf(entry: LoadedEntry, corpus: readonly LoadedEntry[]): Array<{ path: string; text: string }> {
  return corpus.filter((other) => other.repo === entry.repo && other.path !== entry.path).map((other) => ({ path: other.path, text: other.text }));
}

export const defaultStandardize: Standardize = (entry, corpus) => standardizeWorkflowText({
  text: entry.text,
  path: entry.path,
  options: { matrixStrategy: 'newest-python', upstreamRepository: entry.repo },
  workflows: siblingsOf(entry, corpus),
});

function jobIds(text: string): Set<string> {
  const doc = parseDocument(text);
  const jobs = isMap(doc.contents) ? doc.contents.get('jobs', true) : undefined;
  return new Set(isMap(jobs) ? jobs.items.map((pair) => String((pair.key as { value?: unknown } | null)?.value ?? pair.key)) : []);
}

export function run(entry: LoadedEntry, corpus: readonly LoadedEntry[], standardize: Standardize): Outcome {
  try {
    const result = standardize(entry, corpus);
    return { kind: 'standardized', result, keptJobs: jobIds(result.text) };
  } catch (error) {
    if (isAppError(error) && error.kind === 'invalid_input') return { kind: 'refused', code: error.code, message: error.message };
    return { kind: 'crashed', error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** `secrets.X` / `secrets['X']` other than GITHUB_TOKEN in the workflow's values (comments are not read by GitHub). */
export function secretsLeft(text: string): string[] {
  const found: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const match of value.matchAll(/\bsecrets\s*(?:\.\s*([A-Za-z_][\w-]*)|\[\s*'([^']+)'\s*\])/g)) found.push(match[1] ?? match[2] ?? '');
    } else if (Array.isArray(value)) {
      value.forEach(visit);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        visit(key);
        visit(inner);
      }
    }
  };
  visit(parseDocument(text).toJSON());
  return found.filter((name) => name.toUpperCase() !== 'GITHUB_TOKEN');
}

/** A finding without its position and without the object type actionlint lists (the reduced matrix lists fewer keys). */
function findingKey(finding: LintFinding): string {
  return `${finding.kind}: ${finding.message.replace(/ in object type \{.*\}$/, '')}`;
}

/** Findings of `after` that `before` does not have (as a multiset of kind + message). */
export function addedFindings(before: readonly LintFinding[], after: readonly LintFinding[]): LintFinding[] {
  const remaining = new Map<string, number>();
  for (const finding of before) remaining.set(findingKey(finding), (remaining.get(findingKey(finding)) ?? 0) + 1);
  return after.filter((finding) => {
    const left = remaining.get(findingKey(finding)) ?? 0;
    if (left > 0) {
      remaining.set(findingKey(finding), left - 1);
      return false;
    }
    return true;
  });
}

export interface Miss {
  file: string;
  job: string;
  expected: 'keep' | 'drop' | 'refuse';
  label: string;
  got: string;
}

export interface Figures {
  files: number;
  repos: number;
  keepJobs: number;
  keptJobs: number;
  dropJobs: number;
  droppedJobs: number;
  nothingToValidate: number;
  refused: number;
  wrongRefusals: number;
  secretsLeft: number;
  lintAdded: number;
  crashes: number;
  misses: Miss[];
  secretFiles: string[];
  lintFiles: string[];
  crashFiles: string[];
}

function reportReason(result: StandardizeResult, job: string): string {
  const entry = result.report.find((item) => item.target === `jobs.${job}` && item.action === 'removed-job');
  return entry === undefined ? 'kept' : `removed: ${entry.reason}`;
}

export function measure(corpus: readonly LoadedEntry[], options: { standardize?: Standardize; linter?: WorkflowLinter } = {}): Figures {
  const standardize = options.standardize ?? defaultStandardize;
  const entries = corpus.filter((entry) => entry.role !== 'context');
  const figures: Figures = {
    files: entries.length,
    repos: new Set(entries.map((entry) => entry.repo)).size,
    keepJobs: 0,
    keptJobs: 0,
    dropJobs: 0,
    droppedJobs: 0,
    nothingToValidate: 0,
    refused: 0,
    wrongRefusals: 0,
    secretsLeft: 0,
    lintAdded: 0,
    crashes: 0,
    misses: [],
    secretFiles: [],
    lintFiles: [],
    crashFiles: [],
  };
  for (const entry of entries) {
    const outcome = run(entry, corpus, standardize);
    const refused = outcome.kind === 'refused' && outcome.code === 'nothing_to_validate';
    if (outcome.kind === 'crashed' || (outcome.kind === 'refused' && !refused)) {
      figures.crashes += 1;
      figures.crashFiles.push(`${entry.file}: ${outcome.kind === 'crashed' ? outcome.error : `${outcome.code}: ${outcome.message}`}`);
    }
    if (entry.nothingToValidate === true) {
      figures.nothingToValidate += 1;
      if (refused) figures.refused += 1;
      else figures.misses.push({ file: entry.file, job: '*', expected: 'refuse', label: 'nothing to validate', got: outcome.kind });
    } else if (refused) {
      figures.wrongRefusals += 1;
    }
    for (const [job, label] of Object.entries(entry.jobs ?? {})) {
      const kept = outcome.kind === 'standardized' && outcome.keptJobs.has(job);
      const got = outcome.kind === 'standardized' ? reportReason(outcome.result, job) : outcome.kind;
      if (label.expect === 'keep') {
        figures.keepJobs += 1;
        if (kept) figures.keptJobs += 1;
        else figures.misses.push({ file: entry.file, job, expected: 'keep', label: label.reason, got });
      } else {
        figures.dropJobs += 1;
        if (!kept) figures.droppedJobs += 1;
        else figures.misses.push({ file: entry.file, job, expected: 'drop', label: label.reason, got });
      }
    }
    if (outcome.kind !== 'standardized') continue;
    const left = secretsLeft(outcome.result.text);
    if (left.length > 0) {
      figures.secretsLeft += left.length;
      figures.secretFiles.push(`${entry.file}: ${[...new Set(left)].join(', ')}`);
    }
    if (options.linter !== undefined) {
      const added = addedFindings(options.linter(entry.text, entry.path), options.linter(outcome.result.text, entry.path));
      if (added.length > 0) {
        figures.lintAdded += added.length;
        figures.lintFiles.push(`${entry.file}: ${added.map((finding) => `${finding.line}:${finding.column} ${finding.message} [${finding.kind}]`).join(' | ')}`);
      }
    }
  }
  return figures;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`;
}

export function renderFigures(figures: Figures): string {
  const lines = [
    `corpus: ${figures.files} workflow files from ${figures.repos} repositories`,
    `validation jobs kept:        ${figures.keptJobs}/${figures.keepJobs} = ${percent(figures.keptJobs, figures.keepJobs)}`,
    `must-drop jobs dropped:      ${figures.droppedJobs}/${figures.dropJobs} = ${percent(figures.droppedJobs, figures.dropJobs)}`,
    `nothing-to-validate refused: ${figures.refused}/${figures.nothingToValidate} = ${percent(figures.refused, figures.nothingToValidate)}`,
    `refused but had validation:  ${figures.wrongRefusals}`,
    `secrets left (not GITHUB_TOKEN): ${figures.secretsLeft}`,
    `actionlint findings added:   ${figures.lintAdded}`,
    `crashes:                     ${figures.crashes}`,
  ];
  const detail = (title: string, items: readonly string[]): void => {
    if (items.length === 0) return;
    lines.push('', `${title} (${items.length}):`, ...items.map((item) => `  ${item}`));
  };
  detail('misses', figures.misses.map((miss) => `${miss.file} ${miss.job}: expected ${miss.expected} (${miss.label}); got ${miss.got}`));
  detail('secrets left', figures.secretFiles);
  detail('actionlint findings added', figures.lintFiles);
  detail('crashes', figures.crashFiles);
  return lines.join('\n');
}
