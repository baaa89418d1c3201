import { describe, expect, it } from 'vitest';
import { classifyJob } from '../../../src/classify/index.js';
import { RULES } from '../../../src/classify/rules/index.js';
import { PREFILTER_SOURCE_CHARS, joinPrefilters } from '../../../src/classify/prefilter.js';
import { requiredLiterals } from '../../../src/classify/required-literals.js';
import { compileRules } from '../../../src/classify/scanner.js';

const stamp = (i: number): string => `2025-04-07T12:57:${String(10 + (i % 50)).padStart(2, '0')}.2943173Z`;

/** A one-step job log that runs the rule's example command and prints its example output, then fails. */
function exampleLog(command: string, lines: string[]): string {
  const body = [
    `##[group]Run ${command}`,
    command,
    'shell: /usr/bin/bash -e {0}',
    '##[endgroup]',
    ...lines,
    ...(lines.some((line) => line.startsWith('##[error]')) ? [] : ['##[error]Process completed with exit code 1.']),
  ];
  return body.map((text, i) => `${stamp(i)} ${text}`).join('\n');
}

describe('rule table', () => {
  it('has unique ids and flag-free patterns that can be joined into one prefilter', () => {
    const ids = RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(rule.linePattern.flags, rule.id).toBe('');
      expect(rule.linePattern.source, rule.id).not.toContain('(?<');
      // A backreference would point at another pattern's group once the sources are joined into a prefilter.
      expect(rule.linePattern.source, rule.id).not.toMatch(/(?<!\\)(?:\\\\)*\\[1-9]/);
    }
  });

  it("gates no rule on a word most test output holds (the rule's pattern would run on nearly every line)", () => {
    // A header rule's `(?:spec|test)` once gave it the literal `test`: the bench's failing step took twice as long.
    const common = new Set(['test', 'tests', 'spec', 'with', 'from', 'file', 'line', 'passed']);
    for (const rule of RULES) {
      const literals = requiredLiterals((rule.prefilterPattern ?? rule.linePattern).source) ?? [];
      expect(literals.filter((literal) => common.has(literal.toLowerCase())), rule.id).toEqual([]);
    }
  });

  it('joins the table into prefilters V8 optimizes (each under 20 KB) that let every example line through', () => {
    const prefilters = compileRules(RULES.map((rule) => ({ ...rule, commandPattern: undefined })), '').prefilters;
    expect(prefilters.length).toBeGreaterThan(1);
    for (const prefilter of prefilters) expect(prefilter.source.length).toBeLessThanOrEqual(PREFILTER_SOURCE_CHARS);
    for (const rule of RULES) {
      for (const line of rule.example.lines.filter((l) => rule.linePattern.test(l))) {
        expect(prefilters.some((p) => p.test(line)), `${rule.id}: ${line}`).toBe(true);
        if (rule.prefilterPattern !== undefined) expect(rule.prefilterPattern.test(line), rule.id).toBe(true);
      }
    }
    // Patterns without a required literal keep their own source, split under the bound.
    const long = [`\\d${'a?'.repeat(PREFILTER_SOURCE_CHARS / 4)}`, `\\s${'b?'.repeat(PREFILTER_SOURCE_CHARS / 4)}`];
    expect(joinPrefilters(long).map((p) => p.source.length <= PREFILTER_SOURCE_CHARS)).toEqual([true, true]);
    expect(joinPrefilters([])).toEqual([]);
  });

  it.each(RULES.map((rule) => [rule.id, rule] as const))('%s labels its example output', async (_id, rule) => {
    const result = await classifyJob({ log: exampleLog(rule.example.command, rule.example.lines) });
    const label = result.labels.find((l) => l.type === rule.type);
    expect(label, `labels: ${result.labels.map((l) => l.type).join(', ')}`).toBeDefined();
    expect(label?.evidence.some((e) => e.rule === rule.id)).toBe(true);
    expect(label?.stepName).toBe(`Run ${rule.example.command}`);
    if (rule.findingParser !== undefined) {
      expect(label?.findings.some((f) => f.rule === rule.id && f.path.length > 0 && f.line > 0), 'a finding').toBe(true);
    }
  });

  it('ignores the same output when the step succeeded', async () => {
    for (const rule of RULES.filter((r) => r.fallback !== true && !r.example.lines.some((l) => l.startsWith('##[error]')))) {
      const log = exampleLog(rule.example.command, rule.example.lines).replace(/\n[^\n]*##\[error\]Process completed[^\n]*$/, '');
      const result = await classifyJob({ log });
      expect(result.labels, rule.id).toEqual([]);
    }
  });
});
