import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { failureRecap } from '../../../scripts/failure-recap.mjs';

// test/fixtures/vitest-failed-run.txt: what vitest 4.1.12 printed (colours included, as in CI) for two files, one
// with a failed assertion and one throwing after its test ended.
const output = readFileSync(new URL('../../fixtures/vitest-failed-run.txt', import.meta.url), 'utf8').split('\n');

describe('failureRecap (what npm test repeats at its end about a failed lane)', () => {
  it('keeps the failing test, its error and where, the unhandled error, and the summary; no colours, no source frames', () => {
    const recap = failureRecap();
    output.forEach((line) => recap.add(line));
    expect(recap.lines).toContain('   × a bound that ran out 4ms');
    expect(recap.lines).toContain(' FAIL  a.test.mjs > a bound that ran out');
    expect(recap.lines).toContain('AssertionError: expected 1200 to be less than 1000');
    expect(recap.lines).toContain(' ❯ a.test.mjs:3:49');
    expect(recap.lines).toContain('Error: late boom');
    expect(recap.lines).toContain('      Tests  1 failed | 3 passed (4)');
    expect(recap.lines.join('\n')).not.toMatch(/\u001b|\d+\|| passes|✓/);
  });

  it('keeps nothing of a run that passed', () => {
    const recap = failureRecap();
    output.filter((line) => /✓|RUN/.test(line)).forEach((line) => recap.add(line));
    expect(recap.lines).toEqual([]);
  });

  it('stops at its limit and counts what it left out', () => {
    const recap = failureRecap(3);
    output.forEach((line) => recap.add(line));
    expect(recap.lines).toHaveLength(4);
    expect(recap.lines[3]).toMatch(/^… and \d+ more line\(s\)/);
  });
});
