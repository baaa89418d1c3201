import { escapeLiteral, requiredLiterals } from './required-literals.js';

// The scanner's prefilter: which lines of a failing step any rule could match at all.

/**
 * Longest source of one prefilter alternation. V8 does not optimize a regular expression whose source is over
 * 20 KB (RegExp::kRegExpTooLargeToOptimize): the whole table joined into one (~25 KB) took ~150 µs a line, the same
 * alternatives in groups under this bound ~10 µs (a 7,900-line failing step: 1.5 s against 80 ms).
 */
export const PREFILTER_SOURCE_CHARS = 16_000;

/** Splits alternatives into as few alternations as keep each source under PREFILTER_SOURCE_CHARS. */
function alternations(parts: readonly string[]): RegExp[] {
  const groups: string[][] = [];
  let group: string[] = [];
  let length = 0;
  for (const part of parts) {
    // Measured as a RegExp's source (it escapes `/`), the form V8's bound counts.
    const size = new RegExp(part).source.length;
    if (group.length > 0 && length + size + 1 > PREFILTER_SOURCE_CHARS) {
      groups.push(group);
      group = [];
      length = 0;
    }
    group.push(part);
    length += size + 1;
  }
  if (group.length > 0) groups.push(group);
  return groups.map((alternatives) => new RegExp(alternatives.join('|')));
}

const prefilterCache = new Map<string, RegExp[]>();
const literalCache = new Map<string, readonly string[] | null>();

/** requiredLiterals, read once per pattern source. */
export function literalsOf(source: string): readonly string[] | undefined {
  let literals = literalCache.get(source);
  if (literals === undefined) {
    literals = requiredLiterals(source) ?? null;
    literalCache.set(source, literals);
  }
  return literals ?? undefined;
}

/**
 * The prefilters for a set of pattern sources: a line none of them matches is matched by none of the patterns.
 * Patterns whose matches all contain one of a few literals (most of the table) are tested by those literals, in
 * alternations of plain strings (~1 µs a line for the whole table); the rest by their own sources.
 */
export function joinPrefilters(sources: Iterable<string>): RegExp[] {
  const list = [...sources];
  const key = list.join('\u0000');
  const cached = prefilterCache.get(key);
  if (cached !== undefined) return cached;
  const literals = new Set<string>();
  const patterns: string[] = [];
  for (const source of list) {
    const required = literalsOf(source);
    if (required === undefined) patterns.push(`(?:${source})`);
    else for (const literal of required) literals.add(literal);
  }
  // A literal that contains a shorter one adds nothing: a line with it has the shorter one too.
  const kept: string[] = [];
  for (const literal of [...literals].sort((a, b) => a.length - b.length)) {
    if (!kept.some((shorter) => literal.includes(shorter))) kept.push(literal);
  }
  const prefilters = [...alternations(kept.map(escapeLiteral)), ...alternations(patterns)];
  if (prefilterCache.size >= 64) prefilterCache.clear();
  prefilterCache.set(key, prefilters);
  return prefilters;
}
