import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { classifyJob, labelTypes, type Label, type ParsedStep } from '../../../src/classify/index.js';
import { ERROR_TYPES, type ErrorType } from '../../../src/domain/error-types.js';

/** The real-log corpus: logs committed to public repositories, labelled by hand before rules were written. */
export const REAL_CORPUS_DIR = join(import.meta.dirname, '../../fixtures/logs/real');

export type CorpusSplit = 'tuning' | 'evaluation';

export interface CorpusEntry {
  file: string;
  split: CorpusSplit;
  repo: string;
  path: string;
  commit: string;
  source: string;
  encoding: string;
  labels: ErrorType[];
  justification: string;
  conclusion: 'failure' | 'success';
}

export const loadCorpus = (): CorpusEntry[] =>
  (JSON.parse(readFileSync(join(REAL_CORPUS_DIR, 'index.json'), 'utf8')) as { logs: CorpusEntry[] }).logs;

export const readCorpusLog = (entry: CorpusEntry): Buffer => gunzipSync(readFileSync(join(REAL_CORPUS_DIR, entry.file)));

const decode = (raw: Buffer): string => {
  if (raw[0] === 0xff && raw[1] === 0xfe) return raw.subarray(2).toString('utf16le');
  if (raw[0] === 0xfe && raw[1] === 0xff) return Buffer.from(raw.subarray(2)).swap16().toString('utf16le');
  return raw.toString('utf8');
};

/** A byte-order mark, also as logs saved on Windows carry it (decoded through a legacy code page). */
const BOM = '(?:\\uFEFF|\\u2229\\u2557\\u2510|\\u00B4\\u2557\\u2510|\\u00EF\\u00BB\\u00BF)?';
const STAMP = new RegExp(`^${BOM}\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z ?`);
const GH_COLUMNS = new RegExp(`^${BOM}[^\\t]*\\t[^\\t]*\\t(?=${BOM}\\d{4}-\\d{2}-\\d{2}T)`);
const MARKER = /^##\[(?:group|endgroup)\]/;
const COMMAND_PREFIX = /^##\[(?:error|warning|notice|debug)\]/;

/**
 * A failing log as benchmark datasets store it: timestamps, `gh run view` columns, step headers and workflow
 * command markers removed, then the last `chars` characters (from a line start).
 */
export function benchmarkTail(raw: Buffer, chars = 3000): string {
  const lines: string[] = [];
  for (const original of decode(raw).split(/\r?\n/)) {
    const line = original.replace(GH_COLUMNS, '').replace(STAMP, '');
    if (MARKER.test(line)) continue;
    lines.push(line.replace(COMMAND_PREFIX, ''));
  }
  const text = lines.join('\n').trimEnd();
  if (text.length <= chars) return text;
  const cut = text.slice(text.length - chars);
  const nl = cut.indexOf('\n');
  return nl >= 0 ? cut.slice(nl + 1) : cut;
}

export interface TypeScore {
  type: ErrorType;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

export interface CorpusScore {
  logs: number;
  repos: number;
  rows: TypeScore[];
  /** Mean F1 over the types that have support or were predicted in this set. */
  macroF1: number;
  exactMatches: number;
  /** Passing logs that got a label (file: labels). */
  labelledPassing: string[];
  /** Passing logs with a step that exited non-zero under continue-on-error (file: that step's labels). */
  toleratedPassing: string[];
  mismatches: string[];
}

/** `tolerated`: labels of a passing job's steps that exited non-zero (continue-on-error), kept out of `got`. */
export type Prediction = { entry: CorpusEntry; got: ErrorType[]; tolerated?: ErrorType[] };

export function score(predictions: Prediction[]): CorpusScore {
  const counts = new Map<ErrorType, { tp: number; fp: number; fn: number }>(ERROR_TYPES.map((t) => [t, { tp: 0, fp: 0, fn: 0 }]));
  const mismatches: string[] = [];
  const labelledPassing: string[] = [];
  const toleratedPassing: string[] = [];
  let exact = 0;
  for (const { entry, got, tolerated } of predictions) {
    if (tolerated !== undefined && tolerated.length > 0) toleratedPassing.push(`${entry.file}: ${tolerated.join(', ')}`);
    const want = new Set(entry.labels);
    const have = new Set(got);
    for (const type of ERROR_TYPES) {
      const c = counts.get(type) as { tp: number; fp: number; fn: number };
      if (have.has(type) && want.has(type)) c.tp++;
      else if (have.has(type)) c.fp++;
      else if (want.has(type)) c.fn++;
    }
    const same = [...want].sort().join() === [...have].sort().join();
    if (same) exact++;
    else mismatches.push(`${entry.file}: want [${[...want].join(', ')}] got [${[...have].join(', ')}]`);
    if (entry.conclusion === 'success' && have.size > 0) labelledPassing.push(`${entry.file}: ${[...have].join(', ')}`);
  }
  const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b);
  const rows = ERROR_TYPES.map((type): TypeScore => {
    const c = counts.get(type) as { tp: number; fp: number; fn: number };
    const precision = ratio(c.tp, c.tp + c.fp);
    const recall = ratio(c.tp, c.tp + c.fn);
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    return { type, ...c, precision, recall, f1, support: c.tp + c.fn };
  });
  const counted = rows.filter((r) => r.support > 0 || r.fp > 0);
  const macroF1 = counted.length === 0 ? 0 : counted.reduce((sum, r) => sum + r.f1, 0) / counted.length;
  return {
    logs: predictions.length,
    repos: new Set(predictions.map((p) => p.entry.repo)).size,
    rows,
    macroF1,
    exactMatches: exact,
    labelledPassing,
    toleratedPassing,
    mismatches,
  };
}

/**
 * Classifies every log of a split: the whole log (failing jobs with conclusion `failure`, passing ones blind). A
 * passing job's step that printed `Process completed with exit code N` (N > 0), or an action step whose output
 * ends with the action's `##[error]`, failed under `continue-on-error`:
 * its labels are true of that step, and nothing in the log tells it from a failed job's, so they are reported as
 * tolerated, not as labels of the passing job; a label from any other step of a passing job is a misreading.
 */
export async function predictFull(entries: CorpusEntry[]): Promise<Prediction[]> {
  const out: Prediction[] = [];
  for (const entry of entries) {
    const log = readCorpusLog(entry);
    if (entry.conclusion === 'failure') {
      out.push({ entry, got: labelTypes(await classifyJob({ log, jobConclusion: 'failure' })) });
      continue;
    }
    const result = await classifyJob({ log });
    // The step a label came from, by where its evidence is (names repeat: several `Run npm test` steps).
    const exited = result.parsed.failedSteps.filter((step) => (step.exitCode ?? 0) > 0 || actionFailed(step));
    const fromExited = (label: Label): boolean =>
      label.evidence.length > 0 && label.evidence.every((e) => exited.some((step) => e.startLine >= step.startLine && e.endLine <= step.endLine));
    const tolerated = result.labels.filter(fromExited);
    const rest = result.labels.filter((label) => !fromExited(label));
    out.push({ entry, got: labelTypes({ labels: rest }), tolerated: labelTypes({ labels: tolerated }) });
  }
  return out;
}

/**
 * An action step (`uses: owner/name@ref`, its group `Run owner/name@ref`) that failed: the action's own `##[error]`
 * closes its output (the runner prints no exit code for it), where a problem matcher's `##[error]` lines sit among
 * the tool's output. The message may run over a few more lines (download-artifact adds two lines of help), so the
 * last `##[error]` counts within the step's last five lines. An action that reports an error without failing
 * (`core.error`) and prints nothing after it looks the same: the test prints every tolerated step, for a reader to
 * check.
 */
const ACTION_STEP = /^[\w.-]+\/[\w./-]+@\S+$/;
const actionFailed = (step: ParsedStep): boolean => {
  const last = step.errorLines[step.errorLines.length - 1];
  return ACTION_STEP.test(step.command.split('\n')[0] ?? '') && last !== undefined && last.line >= step.endLine - 5;
};

/** Classifies the benchmark-style tail of every failing log of a split. */
export async function predictTail(entries: CorpusEntry[]): Promise<Prediction[]> {
  const out: Prediction[] = [];
  for (const entry of entries.filter((e) => e.conclusion === 'failure')) {
    const result = await classifyJob({ log: benchmarkTail(readCorpusLog(entry)), jobConclusion: 'failure' });
    out.push({ entry, got: labelTypes(result) });
  }
  return out;
}

const pct = (x: number): string => x.toFixed(2);

export function formatScore(title: string, s: CorpusScore): string {
  const lines = [
    `${title}: ${s.logs} logs from ${s.repos} repositories, macro-F1 ${s.macroF1.toFixed(3)}, exact label sets ${s.exactMatches}/${s.logs}, passing logs labelled ${s.labelledPassing.length}${s.toleratedPassing.length > 0 ? ` (and ${s.toleratedPassing.length} with a continue-on-error step that failed: ${s.toleratedPassing.join('; ')})` : ''}`,
    `  ${'type'.padEnd(27)} ${'P'.padStart(5)} ${'R'.padStart(5)} ${'F1'.padStart(5)} ${'n'.padStart(4)} ${'fp'.padStart(4)}`,
    ...s.rows.map((r) => `  ${r.type.padEnd(27)} ${pct(r.precision).padStart(5)} ${pct(r.recall).padStart(5)} ${pct(r.f1).padStart(5)} ${String(r.support).padStart(4)} ${String(r.fp).padStart(4)}`),
  ];
  return lines.join('\n');
}
