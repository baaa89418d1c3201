import type { ErrorType } from '../../domain/error-types.js';
import type { Finding } from '../types.js';

/** Per-step scanner state a finding parser may read (the file header a tool printed last). */
export interface RuleState {
  header?: { path: string; line?: number };
  /** Rules an earlier line of the step disarmed (see `Rule.disarmPattern`). */
  disarmed?: Set<string>;
  /** The groups `previousPattern` matched on the line before the current match (set for rules that have one). */
  previous?: RegExpExecArray;
}

export type ParsedFinding = Omit<Finding, 'tool' | 'rule' | 'level'> & { level?: Finding['level'] };

/**
 * One entry per tool message. A rule applies to the output of a step whose command matches `commandPattern`
 * (or to every step when it has none); the first rule whose `linePattern` matches a line wins that line.
 * Patterns carry no flags and no named groups: the scanner joins them into prefilter alternations.
 */
export interface Rule {
  id: string;
  type: ErrorType;
  tool: string;
  commandPattern?: RegExp;
  linePattern: RegExp;
  /**
   * A looser pattern that every line `linePattern` matches also matches, for the step's joined prefilter: rules
   * that share one (the task-name rules, which differ only in the names they accept) add it to the prefilter once.
   */
  prefilterPattern?: RegExp;
  /** A line that names the file the following lines are about (eslint, pydocstyle): sets `state.header`. */
  headerPattern?: RegExp;
  /**
   * The line right before a `linePattern` match must match this too, else the rule passes the line on
   * (rustc-style diagnostics name the message first, then ` --> path:line:col`): its groups reach the finding
   * parser as `state.previous`.
   */
  previousPattern?: RegExp;
  /**
   * An earlier line of the same step that says the rule's line is not the failure (upload-artifact echoes
   * `if-no-files-found: warn`, then prints the same sentence it prints as an error): the rule passes later lines on.
   */
  disarmPattern?: RegExp;
  findingParser?: (match: RegExpExecArray, state: RuleState) => ParsedFinding | undefined;
  /** Lines of context kept around the matching line in the evidence. */
  context?: { before?: number; after?: number };
  /** A second type the same line proves (a test summary line that names the exception). */
  also?: ErrorType;
  /** Only counts when nothing else matched in the step (command-only inference). */
  fallback?: boolean;
  /**
   * A generic signature (an uncaught exception, a network error) that another rule can explain: its hit is dropped
   * when a rule without `yieldsTo` found one of these types in the same step.
   */
  yieldsTo?: readonly ErrorType[];
  /** Output the tool really prints, and a command that runs it: one unit test per rule uses these. */
  example: { command: string; lines: string[] };
}

/** Builds a finding parser for `path:line[:col]: message` groups at the given positions. */
export const fileLineFinding =
  (groups: { path: number; line: number; column?: number; message: number; code?: number }, level: Finding['level'] = 'failure') =>
  (m: RegExpExecArray): ParsedFinding | undefined => {
    const path = m[groups.path];
    const line = Number(m[groups.line]);
    const message = m[groups.message];
    if (path === undefined || message === undefined || !Number.isFinite(line)) return undefined;
    const column = groups.column === undefined ? undefined : Number(m[groups.column]);
    const code = groups.code === undefined ? undefined : m[groups.code];
    const text = code === undefined ? message.trim() : `${code} ${message.trim()}`;
    return column === undefined || !Number.isFinite(column)
      ? { path, line, message: text, level }
      : { path, line, column, message: text, level };
  };

/**
 * A rule that reads a tool's output alone (no command pattern): its example is one line the tool prints, under a
 * wrapper command, so nothing but the output decides; `extra` adds the other fields (a finding parser, `yieldsTo`, a
 * longer example).
 */
export const outputRule = (id: string, type: ErrorType, tool: string, linePattern: RegExp, example: string, extra: Partial<Rule> = {}): Rule => ({
  id,
  type,
  tool,
  linePattern,
  example: { command: './ci.sh', lines: [example] },
  ...extra,
});
