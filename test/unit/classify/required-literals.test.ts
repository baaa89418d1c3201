import { describe, expect, it } from 'vitest';
import { RULES } from '../../../src/classify/rules/index.js';
import { escapeLiteral, requiredLiterals } from '../../../src/classify/required-literals.js';
import { joinPrefilters } from '../../../src/classify/scanner.js';

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
