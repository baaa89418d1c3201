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

/** `File "x.py", line 3` (tracebacks) or `x.py:3: in <module>` (pytest). */
export const PY_FILE_HEADER = /^(?:E\s+)?\s*File "([^"]+)", line (\d+)|^(\S+\.py):(\d+): in /;
