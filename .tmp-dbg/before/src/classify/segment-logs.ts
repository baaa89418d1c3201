import type { Readable } from 'node:stream';
import { invalidInput } from '../errors.js';
import { classifyJob } from './classify-job.js';
import type { Classification, LogInput, LogLine, ParsedStep } from './types.js';

export interface SegmentLogInput {
  jobName: string;
  /** The job log: give one of `log`, `text` or `stream`. */
  log?: LogInput;
  text?: string | Buffer;
  stream?: Readable;
  /** A classification made earlier; its evidence lines choose the windows. Computed when absent. */
  classification?: Pick<Classification, 'labels'>;
}

export interface LogSegment {
  jobName: string;
  stepName?: string;
  startLine: number;
  endLine: number;
  text: string;
  tokens: number;
}

export interface SegmentLogsResult {
  segments: LogSegment[];
  totalTokens: number;
  /** True when something was left out or cut to stay within the budget. */
  truncated: boolean;
}

export interface SegmentLogsOptions {
  logs: SegmentLogInput[];
  budgetTokens: number;
  /** Lines kept around each evidence range. */
  contextLines?: number;
  /** Last lines of each failing step always offered (where tools print their summary). */
  stepTailLines?: number;
}

const TAIL_KEPT = 400;

/**
 * Lines that carry no signal for a repair agent: progress, downloads, runner chatter. Linear in the line's length:
 * spaces and bar characters are one class (`\s*[… ]*\s*` took cubic time on a line of spaces), and a percentage
 * starts where its digits start.
 */
const NOISE =
  /^(?:##\[(?:group|endgroup|debug|command)\]|\s*(?:Collecting|Downloading|Using cached|Requirement already satisfied|Obtaining|Installing collected packages|Preparing metadata|Getting requirements to build|Building wheels? for|Created wheel for|Stored in directory|Attempting uninstall|Found existing installation|Uninstalling|Successfully uninstalled)\b|[\s━█▏▎▍▌▋▊▉\-=#>.]*\d+(?:\.\d+)?\/\d+(?:\.\d+)? [kMG]?B\b|.*(?<!\d)\d+%\|[█▏▎▍▌▋▊▉ ]*\||\s*\[command\]|\s*$)/;

const isNoise = (text: string): boolean => NOISE.test(text);

interface Window {
  startLine: number;
  endLine: number;
}

function mergeWindows(windows: Window[]): Window[] {
  const sorted = [...windows].sort((a, b) => a.startLine - b.startLine);
  const out: Window[] = [];
  for (const w of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && w.startLine <= last.endLine + 1) last.endLine = Math.max(last.endLine, w.endLine);
    else out.push({ ...w });
  }
  return out;
}

interface Candidate {
  jobName: string;
  stepName: string;
  lines: LogLine[];
}

/** The windows of one failing step: around each evidence range, and the step's last lines. */
function stepCandidates(jobName: string, step: ParsedStep, evidence: Window[], context: number, tailLines: number): Candidate[] {
  const tail = (step.tail ?? []).filter((l) => !isNoise(l.text));
  if (tail.length === 0) return [];
  const windows = evidence.map((w) => ({ startLine: w.startLine - context, endLine: w.endLine + context }));
  const last = tail.slice(-tailLines);
  const first = last[0];
  if (first !== undefined) windows.push({ startLine: first.line, endLine: step.endLine });
  const stepName = step.stepName ?? step.title;
  return mergeWindows(windows)
    .map((w) => ({ jobName, stepName, lines: tail.filter((l) => l.line >= w.startLine && l.line <= w.endLine) }))
    .filter((c) => c.lines.length > 0);
}

type CountTokens = (text: string) => number;

/** The o200k tables take ~30 MB of heap: loaded on first use, not by whoever imports the classifier. */
const loadCounter = async (): Promise<CountTokens> => (await import('gpt-tokenizer/encoding/o200k_base')).countTokens;

function toSegment(c: Candidate, lines: LogLine[], countTokens: CountTokens): LogSegment {
  const text = lines.map((l) => l.text).join('\n');
  return {
    jobName: c.jobName,
    stepName: c.stepName,
    startLine: lines[0]?.line ?? 0,
    endLine: lines[lines.length - 1]?.line ?? 0,
    text,
    tokens: countTokens(text),
  };
}

/**
 * Cuts failed jobs' logs into the segments a repair agent should read, within a token budget (o200k encoding):
 * only failing steps, noise removed (set-up and clean-up steps, download progress, pip chatter), windows around
 * the classifier's evidence plus each failing step's last lines, the most recent failures first.
 */
export async function segmentLogs(opts: SegmentLogsOptions): Promise<SegmentLogsResult> {
  const countTokens = await loadCounter();
  const context = opts.contextLines ?? 5;
  const tailLines = opts.stepTailLines ?? 30;
  const candidates: Candidate[] = [];
  for (const entry of [...opts.logs].reverse()) {
    const log = entry.log ?? entry.text ?? entry.stream;
    if (log === undefined) throw invalidInput('segment_log_missing', `no log given for job ${entry.jobName}`);
    const result = await classifyJob({ log, keepTailLines: TAIL_KEPT });
    const labels = entry.classification?.labels ?? result.labels;
    const failing = [...result.parsed.failedSteps].reverse();
    for (const step of failing) {
      const evidence = labels
        .flatMap((label) => label.evidence)
        .filter((e) => e.startLine >= step.startLine && e.endLine <= step.endLine);
      candidates.push(...stepCandidates(entry.jobName, step, evidence, context, tailLines));
    }
  }
  const segments: LogSegment[] = [];
  let totalTokens = 0;
  let truncated = false;
  for (const candidate of candidates) {
    const whole = toSegment(candidate, candidate.lines, countTokens);
    if (totalTokens + whole.tokens <= opts.budgetTokens) {
      segments.push(whole);
      totalTokens += whole.tokens;
      continue;
    }
    truncated = true;
    // Keep the window's last lines that still fit: that is where the failure is reported.
    const room = opts.budgetTokens - totalTokens;
    let lo = 0;
    let best: LogSegment | undefined;
    let hi = candidate.lines.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const part = toSegment(candidate, candidate.lines.slice(mid), countTokens);
      if (part.tokens <= room) {
        best = part;
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
    if (best !== undefined && best.tokens > 0) {
      segments.push(best);
      totalTokens += best.tokens;
    }
    break;
  }
  return { segments, totalTokens, truncated };
}
