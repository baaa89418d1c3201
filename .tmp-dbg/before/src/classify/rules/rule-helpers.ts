import type { ParsedFinding, RuleState } from './rule.js';

/** A finding at the file/line a previous header line named (`state.header`), with the matched message. */
export const headerFinding =
  (message: number) =>
  (m: RegExpExecArray, state: RuleState): ParsedFinding | undefined => {
    const header = state.header;
    const text = m[message];
    if (header === undefined || text === undefined) return undefined;
    return { path: header.path, line: header.line ?? 1, message: text.trim() };
  };

/** A finding about a whole file (formatters name files, not lines). */
export const wholeFile =
  (path: number, message: string) =>
  (m: RegExpExecArray): ParsedFinding | undefined => {
    const file = m[path];
    return file === undefined ? undefined : { path: file.trim(), line: 1, message };
  };

/**
 * `File "x.py", line 3` (tracebacks) or `x.py:3: in <module>` (pytest). Written so that no run of characters can be
 * split between two quantifiers (`(?:E\s+)?\s*` took quadratic time on a long line of spaces after an `E`).
 */
export const PY_FILE_HEADER = /^(?:E\s+|\s*)File "([^"]+)", line (\d+)|^(\S+\.py):(\d+): in /;

/**
 * The location line of a rustc-style diagnostic: ` --> path:line:col`, indented by the width of the snippet's
 * line numbers (` --> app/a.py:1:8`, `  --> app/a.py:10:20`). Ruff prints notebook cells as `nb.ipynb:cell 2:3:1`
 * (the line is then the cell's).
 */
export const LOCATION_LINE = /^\s*--> (\S+?)(?::cell \d+)?:(\d+):(\d+)$/;

/**
 * A finding at a `LOCATION_LINE` match, with the code and message of the line before it (`state.previous`, as
 * the rule's `previousPattern` matched it), or a fixed message.
 */
export const locationFinding =
  (previous: { code?: number; message: number } | string) =>
  (m: RegExpExecArray, state: RuleState): ParsedFinding | undefined => {
    const path = m[1];
    const line = Number(m[2]);
    const column = Number(m[3]);
    const p = state.previous;
    if (path === undefined || !(line > 0) || p === undefined) return undefined;
    let message: string;
    if (typeof previous === 'string') message = previous;
    else {
      const text = p[previous.message];
      if (text === undefined) return undefined;
      const code = previous.code === undefined ? undefined : p[previous.code];
      message = code === undefined ? text.trim() : `${code} ${text.trim()}`;
    }
    return Number.isFinite(column) && column > 0 ? { path, line, column, message } : { path, line, message };
  };
