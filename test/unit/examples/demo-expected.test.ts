import { describe, expect, it } from 'vitest';
import type { DemoInstance } from '../../../examples/build-demo.js';
import { unexpectedRow } from '../../../examples/demo-expected.js';

const instance = (candidate: 'passed' | 'failed', errorTypes: string[]): DemoInstance => ({
  id: 'demo-x', title: 'x', row: {}, patch: '', candidate: '', expected: { baseline: 'failed', candidate, errorTypes },
});

describe("npm run demo's expected rows", () => {
  it('accepts the rows the example expects', () => {
    expect(unexpectedRow(instance('passed', ['Code Linting']), 'baseline', { state: 'completed', verdict: 'failed', observedLabels: ['Code Linting'] })).toBeNull();
    expect(unexpectedRow(instance('passed', ['Code Linting']), 'candidate', { state: 'completed', verdict: 'passed', observedLabels: [] })).toBeNull();
    expect(unexpectedRow(instance('failed', ['Assertion Error', 'Test Failure']), 'baseline', { verdict: 'failed', observedLabels: ['Test Failure', 'Assertion Error'] })).toBeNull();
  });

  it('refuses a baseline that failed for another reason: the environment instead of the labelled error', () => {
    expect(unexpectedRow(instance('passed', ['Code Linting']), 'baseline', { state: 'completed', verdict: 'failed', observedLabels: ['Environment Error'] }))
      .toBe('demo-x baseline: expected error types Code Linting, observed Environment Error');
  });

  it('refuses a wrong verdict, a submission that ended without one, and one that never finished', () => {
    expect(unexpectedRow(instance('passed', []), 'candidate', { state: 'completed', verdict: 'failed' })).toBe('demo-x candidate: expected passed, got failed');
    expect(unexpectedRow(instance('passed', []), 'candidate', { state: 'infra_error', verdict: null })).toBe('demo-x candidate: expected passed, got infra_error');
    expect(unexpectedRow(instance('failed', []), 'baseline', undefined)).toBe('demo-x baseline: expected failed, got unfinished');
  });
});
