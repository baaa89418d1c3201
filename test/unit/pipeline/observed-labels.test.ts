import { describe, expect, it } from 'vitest';
import { LEARNED_TOOL } from '../../../src/classify/index.js';
import { observedErrorTypes } from '../../../src/pipeline/observed-labels.js';

describe('a submission’s error types', () => {
  it('are its jobs’ rule labels, each once, in first-seen order', () => {
    expect(observedErrorTypes([
      { type: 'Test Failure', tool: 'pytest' },
      { type: 'Assertion Error', tool: 'pytest' },
      { type: 'Test Failure', tool: 'jest' },
      { type: 'Code Linting', tool: null },
    ])).toEqual(['Test Failure', 'Assertion Error', 'Code Linting']);
  });

  it('leave out the learned fallback’s labels, which stay on their jobs', () => {
    expect(observedErrorTypes([
      { type: 'Configuration Error', tool: LEARNED_TOOL },
      { type: 'Test Failure', tool: 'pytest' },
    ])).toEqual(['Test Failure']);
    expect(observedErrorTypes([{ type: 'Configuration Error', tool: LEARNED_TOOL }])).toEqual([]);
  });
});
