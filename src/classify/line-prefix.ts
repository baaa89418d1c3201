/** The prefixes a log line may carry before its text: timestamps, `gh run view` columns, byte-order marks. */
import { timestampLength } from './normalize-line.js';

const TAB = 9;

/** Length of the `2025-04-07T12:57:33.2943173Z ` prefix at `s` (0 when there is none). */
export function stampLength(buf: Buffer, s: number, e: number): number {
  const c = buf[s] as number;
  if (c < 48 || c > 57 || buf[s + 4] !== 45 || buf[s + 10] !== 84) return 0;
  if (buf[s + 27] === 90 && (e === s + 28 || buf[s + 28] === 32)) return Math.min(29, e - s);
  return timestampLength(buf.toString('latin1', s, Math.min(e, s + 40)));
}

/**
 * Byte-order marks that logs saved on Windows carry before the first timestamp: the mark itself, and the mark
 * decoded through a legacy code page and encoded again (`∩╗┐`, `´╗┐`, `ï»¿`).
 */
const MANGLED_BOMS = [
  Buffer.from([0xef, 0xbb, 0xbf]),
  Buffer.from('\u2229\u2557\u2510', 'utf8'),
  Buffer.from('\u00b4\u2557\u2510', 'utf8'),
  Buffer.from('\u00ef\u00bb\u00bf', 'utf8'),
];

export function skipBom(buf: Buffer, s: number, e: number): number {
  const c = buf[s];
  if (c !== 0xef && c !== 0xe2 && c !== 0xc2 && c !== 0xc3) return s;
  for (const bom of MANGLED_BOMS) {
    if (e - s >= bom.length && buf.compare(bom, 0, bom.length, s, s + bom.length) === 0) return s + bom.length;
  }
  return s;
}

const GH_COLUMNS_MAX = 512;

/**
 * `gh run view --log` prefixes every line with `<job>\t<step>\t` before the timestamp: the offsets of the second tab
 * and of the timestamp, or undefined when the line has no such columns. Checked on every line (a log may start
 * with a damaged line, and pasted logs mix layouts).
 */
export function ghColumns(buf: Buffer, s: number, e: number): { a: number; b: number; t: number } | undefined {
  const limit = Math.min(e, s + GH_COLUMNS_MAX);
  let a = -1;
  let b = -1;
  for (let i = s; i < limit; i++) {
    if (buf[i] !== TAB) continue;
    if (a < 0) a = i;
    else {
      b = i;
      break;
    }
  }
  if (b < 0) return spacedColumns(buf, s, limit);
  const t = skipBom(buf, b + 1, e);
  return stampLength(buf, t, e) > 0 ? { a, b, t } : undefined;
}

const SPACE = 32;

/**
 * The same columns with their tabs expanded to spaces, as `gh run view` output pasted into Markdown keeps them:
 * `<job>  <step>  2025-08-02T05:00:28.7549740Z …`. Only GitHub's own stamp (seven fractional digits) after a run of
 * spaces counts, and the columns before it must be two fields apart by two spaces or more, so a line that merely
 * mentions a time is not taken for one. `a` is the last space before the step field and `b` the end of it.
 */
function spacedColumns(buf: Buffer, s: number, limit: number): { a: number; b: number; t: number } | undefined {
  for (let t = s + 4; t + 28 <= limit; t++) {
    if (buf[t - 1] !== SPACE || buf[t - 2] !== SPACE || buf[t + 4] !== 45 || buf[t + 10] !== 84 || buf[t + 19] !== 46 || buf[t + 27] !== 90) continue;
    if (stampLength(buf, t, limit) === 0) continue;
    let b = t - 1;
    while (b > s && buf[b - 1] === SPACE) b--;
    let a = b - 1;
    while (a > s && !(buf[a] === SPACE && buf[a - 1] === SPACE)) a--;
    // `a`: the last space before the step field, as the tab is in the tabbed columns.
    if (a <= s + 1 || buf[s] === SPACE) return undefined;
    return { a, b, t };
  }
  return undefined;
}
