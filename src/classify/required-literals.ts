/**
 * Literal text every match of a regular expression contains: a set of strings such that any string the pattern
 * matches contains at least one of them, or undefined when no such set of strings of MIN_LITERAL characters or
 * more can be read off the pattern (shorter ones, such as `.py`, are on most lines of a test run and would let
 * them all through). The scanner's prefilter tests these literals (one alternation of plain strings,
 * which V8 matches ~20× faster than the rules' own alternations) instead of the patterns.
 *
 * The reading is conservative: an alternative yields the longest run of literal characters it requires (a
 * character under `?`, `*` or `{0,…}` ends the run and is not required; one under `+` or `{n,…}` with n ≥ 1 is
 * required once and ends the run), or the literals of a group it requires; lookarounds, classes, anchors and
 * backreferences require nothing. Patterns carry no flags (the rule table checks it), so literals are
 * case-sensitive.
 */
export const MIN_LITERAL = 4;

const CONTROL: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f', v: '\v' };
/**
 * Escapes read as no literal: classes, assertions, backreferences and (without flags) legacy octal escapes (`\0`-`\9`
 * followed by digits are octal codes, so their digits are not text), `\k<name>`, `\p`, `\cX`.
 */
const NOT_LITERAL = 'dDwWsSbB0123456789kpPc';
const HEX2 = /^[0-9a-fA-F]{2}$/;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** The shorter literal of a set decides how selective it is. */
const shortest = (set: readonly string[]): number => set.reduce((min, s) => Math.min(min, s.length), Infinity);

/**
 * One pass over a pattern's source without building a syntax tree: each alternative keeps the best literal set
 * it requires so far and the run of literal characters it is reading.
 */
class Reader {
  pos = 0;
  constructor(
    private readonly src: string,
    private readonly minLength: number,
  ) {}

  /** An alternation up to the end or a `)` (not consumed): the union of its alternatives' sets, if all have one. */
  alternation(): string[] | undefined {
    const union = new Set<string>();
    let complete = true;
    for (;;) {
      const set = this.sequence();
      if (set === undefined) complete = false;
      else for (const literal of set) union.add(literal);
      if (this.src[this.pos] !== '|') break;
      this.pos++;
    }
    return complete ? [...union] : undefined;
  }

  private sequence(): string[] | undefined {
    let best: string[] | undefined;
    let bestScore = 0;
    let run = '';
    const consider = (set: string[] | undefined): void => {
      if (set === undefined) return;
      const score = shortest(set);
      if (score < this.minLength) return;
      if (best === undefined || score > bestScore || (score === bestScore && set.length < best.length)) {
        best = set;
        bestScore = score;
      }
    };
    const endRun = (): void => {
      if (run.length > 0) consider([run]);
      run = '';
    };
    while (this.pos < this.src.length) {
      const c = this.src[this.pos] as string;
      if (c === '|' || c === ')') break;
      this.pos++;
      if (c === '(') {
        const lookaround = this.groupPrefix();
        const inner = this.alternation();
        this.pos++; // ')'
        const { min } = this.quantifier();
        if (lookaround) continue;
        endRun();
        if (min > 0) consider(inner);
        continue;
      }
      let literal: string | undefined;
      if (c === '\\') literal = this.escape();
      else if (c === '[') this.skipClass();
      else if (c !== '.' && c !== '^' && c !== '$') literal = c;
      const { min, max } = this.quantifier();
      if (literal === undefined || min === 0) {
        endRun();
        continue;
      }
      run += literal;
      if (max !== 1) endRun();
    }
    endRun();
    return best;
  }

  /** After `(`: skips `?:`, `?=`, `?!`, `?<=`, `?<!` or `?<name>`; true for a lookaround (it consumes nothing). */
  private groupPrefix(): boolean {
    if (this.src[this.pos] !== '?') return false;
    const next = this.src[this.pos + 1];
    if (next === ':') {
      this.pos += 2;
      return false;
    }
    if (next === '=' || next === '!') {
      this.pos += 2;
      return true;
    }
    const after = this.src[this.pos + 2];
    if (next === '<' && (after === '=' || after === '!')) {
      this.pos += 3;
      return true;
    }
    this.pos = this.src.indexOf('>', this.pos) + 1;
    return false;
  }

  /** After `\`: the character it stands for, or undefined for a class, an assertion or a backreference. */
  private escape(): string | undefined {
    const c = this.src[this.pos++] as string;
    if (NOT_LITERAL.includes(c)) {
      if (c >= '0' && c <= '9') while (/[0-9]/.test(this.src[this.pos] ?? '')) this.pos++;
      else if (c === 'k' && this.src[this.pos] === '<') this.pos = this.src.indexOf('>', this.pos) + 1;
      return undefined;
    }
    const control = CONTROL[c];
    if (control !== undefined) return control;
    if (c === 'x' || c === 'u') {
      // Only a complete code is one; otherwise (no flags) the escape is the letter itself and the rest is text.
      const length = c === 'x' ? 2 : 4;
      const digits = this.src.slice(this.pos, this.pos + length);
      if (!(c === 'x' ? HEX2 : HEX4).test(digits)) return c;
      this.pos += length;
      return String.fromCharCode(Number.parseInt(digits, 16));
    }
    return c;
  }

  /** After `[`: skips to its `]` (in JavaScript a `]` right after `[` or `[^` closes it: `[]`, `[^]`). */
  private skipClass(): void {
    if (this.src[this.pos] === '^') this.pos++;
    while (this.pos < this.src.length && this.src[this.pos] !== ']') this.pos += this.src[this.pos] === '\\' ? 2 : 1;
    this.pos++;
  }

  /** A quantifier at the reading position (consumed), as its bounds; {1,1} when there is none. */
  private quantifier(): { min: number; max: number } {
    const c = this.src[this.pos];
    let min = 1;
    let max = 1;
    if (c === '?' || c === '*' || c === '+') {
      this.pos++;
      min = c === '+' ? 1 : 0;
      max = c === '?' ? 1 : Infinity;
    } else if (c === '{') {
      const close = this.src.indexOf('}', this.pos);
      const m = close < 0 ? null : /^\{(\d+)(,(\d*))?\}$/.exec(this.src.slice(this.pos, close + 1));
      if (m === null) return { min, max };
      this.pos = close + 1;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    } else {
      return { min, max };
    }
    if (this.src[this.pos] === '?') this.pos++; // lazy
    return { min, max };
  }
}

/** `minLength`: the shortest literal worth keeping (tests lower it to exercise the reading on short strings). */
export function requiredLiterals(source: string, minLength = MIN_LITERAL): string[] | undefined {
  const reader = new Reader(source, minLength);
  const set = reader.alternation();
  return reader.pos === source.length ? set : undefined;
}

/** A literal as a regular-expression source. */
export const escapeLiteral = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
