/** An escape sequence: CSI, OSC, APC, DCS (colours, cursor moves, hyperlinks, Buildkite's timestamps). */
const ANSI = /\x1b(?:\[[0-9;?]*[ -/]*[@-~]|[\]_P^X][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
const WEB_VIEW_LINK = /\[(\d+)\]\(https:\/\/github\.com\/[^()[\]\s#]*\/job\/\d+(?:\?[^()[\]\s#]*)?#step:\d+:\d+\)/g;
const CARET_ANSI = /\^\[\[[0-9;]*m/g;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z(?: |$)/;
/**
 * BuildKit's prefix on a build step's output: `#13 6.867 ` (step number, seconds) in plain progress, `6.867 ` in the
 * excerpt of the failing step that `buildx` prints with its error.
 */
const BUILDKIT = /^(?:#\d{1,4} \d{1,6}\.\d{3} |\d{1,6}\.\d{3} (?=\S))/;

export interface NormalizedLine {
  text: string;
  timestamp?: string;
}

/** True when the text opens with GitHub's `2025-04-07T12:57:33.2943173Z ` prefix. */
export const startsWithTimestamp = (text: string): boolean => {
  const c = text.charCodeAt(0);
  return c >= 48 && c <= 57 && text.charCodeAt(4) === 45 && text.charCodeAt(10) === 84 && TIMESTAMP.test(text);
};

/** Length of the `<timestamp> ` prefix of a raw line (0 when it has none). */
export function timestampLength(text: string): number {
  const c = text.charCodeAt(0);
  if (c < 48 || c > 57 || text.charCodeAt(4) !== 45 || text.charCodeAt(10) !== 84) return 0;
  if (text.charCodeAt(27) === 90) {
    if (text.length === 28) return 28;
    if (text.charCodeAt(28) === 32) return 29;
  }
  const m = TIMESTAMP.exec(text);
  return m === null ? 0 : m[0].length;
}

/** Strips the timestamp prefix, ANSI codes and a BuildKit progress prefix of one raw log line. */
export function normalizeLine(raw: string): NormalizedLine {
  let text = raw;
  let timestamp: string | undefined;
  const c = text.charCodeAt(0);
  if (c >= 48 && c <= 57 && text.charCodeAt(4) === 45 && text.charCodeAt(10) === 84) {
    // Fast path for the usual 7 fractional digits.
    if (text.charCodeAt(27) === 90 && (text.length === 28 || text.charCodeAt(28) === 32)) {
      timestamp = text.slice(0, 28);
      text = text.slice(29);
    } else {
      const m = TIMESTAMP.exec(text);
      if (m !== null) {
        timestamp = m[0].trimEnd();
        text = text.slice(m[0].length);
      }
    }
  }
  if (text.includes('\x1b')) text = text.replace(ANSI, '');
  // Logs saved through a pager or an editor show the escape character in caret notation (`^[[33m`).
  if (text.includes('^[[')) text = text.replace(CARET_ANSI, '');
  // A log copied from GitHub's web view keeps its links to log lines: `TS230[7](https://github.com/o/r/actions/runs/1/job/2#step:6:8)`.
  if (text.includes('](https://github.com/')) text = text.replace(WEB_VIEW_LINK, '$1');
  const first = text.charCodeAt(0);
  if (first === 35 || (first >= 48 && first <= 57)) {
    const m = BUILDKIT.exec(text);
    if (m !== null) text = text.slice(m[0].length);
  }
  return timestamp === undefined ? { text } : { text, timestamp };
}

export interface GhRunViewLine {
  job: string;
  step: string;
  rest: string;
}

/** Splits a `gh run view --log` line: `<job name>\t<step name>\t<timestamp> text`. */
export function splitGhRunViewLine(raw: string): GhRunViewLine | undefined {
  const a = raw.indexOf('\t');
  if (a < 0) return undefined;
  const b = raw.indexOf('\t', a + 1);
  if (b < 0) return undefined;
  const rest = raw.slice(b + 1);
  const restNoBom = rest.charCodeAt(0) === 0xfeff ? rest.slice(1) : rest;
  if (!startsWithTimestamp(restNoBom)) return undefined;
  return { job: raw.slice(0, a), step: raw.slice(a + 1, b), rest: restNoBom };
}
