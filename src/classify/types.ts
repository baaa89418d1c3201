import type { Readable } from 'node:stream';
import type { ErrorType } from '../domain/error-types.js';

/**
 * A log as the GitHub API serves it, as the local executor writes it, or as `gh run view --log` prints it: its text,
 * its bytes, or a source of its bytes (a stream, `openLogFile`).
 */
export type LogInput = Readable | AsyncIterable<Uint8Array> | ChunkSource | string | Buffer | Uint8Array;

/**
 * A source of a log's bytes that takes back a chunk its reader no longer points into (`release`) and reads a later
 * chunk into that memory: a 200 MB log is then read through a few buffers instead of 800 new ones, whose first
 * touch costs the process a page fault per 4 KiB (`openLogFile`).
 */
export interface ChunkSource extends AsyncIterable<Buffer> {
  release: (chunk: Buffer) => void;
}

/** A step of the job as GitHub (or the local executor) reports it. */
export interface StepInput {
  number: number;
  name: string;
  conclusion: string | null;
  startedAt?: string | null;
  completedAt?: string | null;
}

/** Log lines that prove a label: a bounded excerpt with 1-based line numbers in the original log. */
export interface Evidence {
  startLine: number;
  endLine: number;
  text: string;
  tool: string;
  rule: string;
}

export type FindingLevel = 'failure' | 'warning' | 'notice';

/** A file/line finding a tool printed, shaped for check-run annotations. */
export interface Finding {
  path: string;
  line: number;
  column?: number;
  message: string;
  tool: string;
  level: FindingLevel;
  rule: string;
}

export interface LogLine {
  line: number;
  text: string;
}

/** A rule that matched in a step, with its evidence and findings (both bounded). */
export interface RuleHit {
  ruleId: string;
  type: ErrorType;
  tool: string;
  fallback: boolean;
  /** A generic rule's hit is dropped when a specific rule in the same step found one of these types. */
  yieldsTo: readonly ErrorType[];
  count: number;
  evidence: Evidence[];
  findings: Finding[];
}

export interface ParsedStep {
  /** 0-based position among the parsed steps. */
  index: number;
  /** `Set up job`, `Run <first command line>`, `Post job cleanup`, `Complete job`, or the gh step column. */
  title: string;
  /** The step's script as shown in its `Run` group (bounded). */
  command: string;
  startLine: number;
  endLine: number;
  startedAt?: string;
  completedAt?: string;
  errorLines: LogLine[];
  exitCode?: number;
  /** True when the step list says so, or (without a step list) when the step printed `##[error]`. */
  failed: boolean;
  /** The job step this block was mapped onto, when a step list was given. */
  stepNumber?: number;
  stepName?: string;
  hits: RuleHit[];
  /** The last output lines of a step that printed `##[error]`, when asked for (parseLog's keepTailLines). */
  tail?: LogLine[];
  /** The rules read this step in case it is the one that failed: the log has no step markers, or ends in it. */
  speculative?: boolean;
  /** Nothing in the log said this step failed: it was chosen as the failing one (see parseLog's assumeFailure). */
  inferred?: boolean;
}

/** `raw`: GitHub's timestamped lines; `gh-run-view`: `gh run view --log`; `plain`: no timestamps (pasted output). */
export type LogLayout = 'raw' | 'gh-run-view' | 'plain';

export interface ParsedLog {
  layout: LogLayout;
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  lineCount: number;
  steps: ParsedStep[];
  /** `##[error]` lines of the whole log (bounded). */
  errorLines: LogLine[];
  failedSteps: ParsedStep[];
}

export interface Label {
  type: ErrorType;
  tool?: string;
  stepName?: string;
  evidence: Evidence[];
  findings: Finding[];
  /**
   * Set when no rule explained the failed job and the learned fallback gave this label (tool `learned-fallback`):
   * the model's probability for the type. Rule labels never carry it.
   */
  learned?: { probability: number };
}

export interface Classification {
  labels: Label[];
  failedSteps: string[];
  errorLines: LogLine[];
}
