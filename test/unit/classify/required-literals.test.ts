import { describe, expect, it } from 'vitest';
import { RULES } from '../../../src/classify/rules/index.js';
import { escapeLiteral, requiredLiterals } from '../../../src/classify/required-literals.js';
import { joinPrefilters } from '../../../src/classify/prefilter.js';

describe('requiredLiterals', () => {
  it.each([
    ['^Process completed with exit code 127\\.', ['Process completed with exit code 127.']],
    ['^(?:##\\[error\\])?Process completed', ['Process completed']],
    ['fooz|barbaz', ['fooz', 'barbaz']],
    ['^\\s*AssertionError(?: \\[ERR_ASSERTION\\])?: ', ['AssertionError']],
    ['abc?defg', ['defg']],
    ['ab+cdef', ['cdef']],
    ['x(?:alpha|beta)y', ['alpha', 'beta']],
    ['(?=look)ahead', ['ahead']],
    ['.py:\\d+: D\\d{3} x', undefined],
    ['tab\\there', ['tab\there']],
    ['\\u2026 and more', ['… and more']],
    ['[abc]+ done', [' done']],
  ])('%s', (source, literals) => {
    expect(requiredLiterals(source)?.sort()).toEqual(literals === undefined ? undefined : [...literals].sort());
  });

  it.each([['\\d+:\\d+'], ['(?:abcd)?defg?'], ['abcd|\\d'], ['a.b.c'], ['(abcd)*'], ['x{0,3}yza'], ['\\.py']])('finds nothing required in %s', (source) => {
    expect(requiredLiterals(source)).toBeUndefined();
  });

  it('every line a rule matches contains one of its literals (every example line of the table)', () => {
    for (const rule of RULES) {
      const literals = requiredLiterals((rule.prefilterPattern ?? rule.linePattern).source);
      if (literals === undefined) continue;
      for (const line of rule.example.lines.filter((l) => rule.linePattern.test(l))) {
        expect(literals.some((literal) => line.includes(literal)), `${rule.id}: ${line}`).toBe(true);
      }
    }
  });

  it('covers most of the table, so the prefilter is mostly plain strings', () => {
    const without = RULES.filter((rule) => requiredLiterals((rule.prefilterPattern ?? rule.linePattern).source) === undefined);
    expect(without.length).toBeLessThan(RULES.length / 10);
  });

  it('the prefilter lets through exactly what a pattern matches, never less', () => {
    const sources = ['^npm (?:ERR!|error) code E404', 'Cannot find module \'([^\']+)\'', '^\\d+ failed$'];
    const prefilters = joinPrefilters(sources);
    for (const line of ['npm error code E404', "Error: Cannot find module 'x'", '3 failed']) {
      expect(prefilters.some((p) => p.test(line)), line).toBe(true);
    }
    expect(prefilters.some((p) => p.test('all 12 tests passed'))).toBe(false);
    expect(escapeLiteral('a.b*(c)')).toBe('a\\.b\\*\\(c\\)');
  });
});

describe('requiredLiterals on escapes and classes that read differently than they look (review of 2026-12-02)', () => {
  it.each([
    ['abcd\\012', 'abcd\n'],
    ['\\12defg', '\ndefg'],
    ['(a)\\10bcd', 'a\bbcd'],
    ['\\x1zabc', 'x1zabc'],
    ['\\u00egabc', 'u00egabc'],
    ['\\x-1abcd', 'x-1abcd'],
    ['[^]?|x]wxyz', 'q'],
    ['a[]?|b]cdef', 'a'],
  ])('%s matches %j, which holds one of its literals', (source, text) => {
    expect(new RegExp(source).test(text)).toBe(true);
    const literals = requiredLiterals(source);
    if (literals !== undefined) expect(literals.some((literal) => text.includes(literal)), JSON.stringify(literals)).toBe(true);
  });

  it('keeps complete hexadecimal escapes as the characters they stand for', () => {
    expect(requiredLiterals('\\x1b\\[31mFAIL')).toEqual(['\u001b[31mFAIL']);
    expect(requiredLiterals('caf\\u00e9 crème')).toEqual(['café crème']);
  });

  it('holds on random patterns and the strings they match', () => {
    // A small generator of patterns over a 4-letter alphabet, and strings sampled from it: every match holds a literal.
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const atom = (depth: number): string => {
      const r = rand(depth > 2 ? 6 : 9);
      if (r < 3) return 'abcd'[rand(4)] as string;
      if (r === 3) return ['\\x61', '\\d', '.', '[ab]', '[^a]', '\\b'][rand(6)] as string;
      if (r === 4) return ['^', '$'][rand(2)] as string;
      if (r === 5) return `\\${'abcd'[rand(4)] === 'a' ? 'n' : 's'}`;
      return `(${['', '?:', '?=', '?!'][rand(4)]}${alternation(depth + 1)})`;
    };
    const quantified = (depth: number): string => atom(depth) + (['', '', '', '?', '*', '+', '{2}', '{0,2}', '{1,}', '+?'][rand(10)] as string);
    const sequence = (depth: number): string => Array.from({ length: 1 + rand(6) }, () => quantified(depth)).join('');
    const alternation = (depth: number): string => Array.from({ length: 1 + rand(depth === 0 ? 3 : 2) }, () => sequence(depth)).join('|');
    let checked = 0;
    for (let i = 0; i < 4000; i++) {
      const source = alternation(0);
      let pattern: RegExp;
      try {
        pattern = new RegExp(source);
      } catch {
        continue; // a quantified anchor: not a pattern
      }
      const literals = requiredLiterals(source, 1);
      if (literals === undefined) continue;
      for (let j = 0; j < 40; j++) {
        const text = Array.from({ length: rand(16) }, () => 'aabbccdd \n1'[rand(11)]).join('');
        if (!pattern.test(text)) continue;
        checked++;
        expect(literals.some((literal) => text.includes(literal)), `${source} on ${JSON.stringify(text)}: ${JSON.stringify(literals)}`).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
