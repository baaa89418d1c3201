import { describe, expect, it } from 'vitest';
import { DEFAULT_HYGIENE_LIMITS, findInputProblem, storableText, textProblem } from '../../../src/util/input-hygiene.js';

const nested = (depth: number): unknown => JSON.parse('['.repeat(depth - 1) + '{"a":1}' + ']'.repeat(depth - 1));

describe('input hygiene', () => {
  it('finds NUL characters and lone surrogates in values and keys, and names where', () => {
    expect(findInputProblem({ label: 'a\u0000b' }, 'body')).toMatchObject({ code: 'invalid_characters', path: 'body.label', message: 'body.label contains a NUL character (\\u0000)' });
    expect(findInputProblem({ metadata: { notes: ['ok', 'x\uD800'] } }, 'body')).toMatchObject({ code: 'invalid_characters', path: 'body.metadata.notes[1]' });
    expect(findInputProblem({ metadata: { '\uDC00lone': 1 } }, 'body')).toMatchObject({ code: 'invalid_characters', path: 'body.metadata["\\udc00lone"]' });
    expect(findInputProblem({ 'a b\u0000': 1 }, 'query')?.message).toContain('the key query["a b\\u0000"] contains a NUL');
    expect(textProblem('\uDBFF')).toBe('is not valid Unicode (a lone surrogate)');
    expect(textProblem('tail \uDFFF')).toBe('is not valid Unicode (a lone surrogate)');
  });

  it('accepts ordinary text: accents, CJK, emoji (surrogate pairs), control characters other than NUL', () => {
    expect(findInputProblem({ label: 'é漢字😀\t\n\u0001', deep: { list: [1, true, null, 'ok'] } }, 'body')).toBeNull();
    expect(findInputProblem('😀😀', 'body')).toBeNull();
  });

  it('refuses nesting beyond the limit without overflowing the stack, even 100,000 deep', () => {
    expect(findInputProblem(nested(DEFAULT_HYGIENE_LIMITS.maxDepth - 1), 'body')).toBeNull();
    expect(findInputProblem(nested(DEFAULT_HYGIENE_LIMITS.maxDepth + 1), 'body')).toMatchObject({ code: 'nesting_too_deep' });
    expect(findInputProblem(nested(100_000), 'body')).toMatchObject({ code: 'nesting_too_deep', message: expect.stringContaining('deeper than 64 levels') });
  });

  it('refuses an oversized string or key, documents excepted', () => {
    const limits = { ...DEFAULT_HYGIENE_LIMITS, maxStringLength: 100 };
    expect(findInputProblem({ label: 'x'.repeat(100) }, 'body', limits)).toBeNull();
    expect(findInputProblem({ label: 'x'.repeat(101) }, 'body', limits)).toMatchObject({ code: 'field_too_large', path: 'body.label' });
    // Documents (a patch, a workflow, a log) are sized by their own limits where they are read.
    expect(findInputProblem({ patch: 'x'.repeat(1000), logs: [{ log: 'y'.repeat(1000) }] }, 'body', limits)).toBeNull();
    expect(findInputProblem({ ['k'.repeat(2000)]: 1 }, 'body')).toMatchObject({ code: 'field_too_large' });
  });

  it('makes text storable: NUL dropped, lone surrogates replaced, pairs kept', () => {
    expect(storableText('bench/a\u0000b')).toBe('bench/ab');
    expect(storableText('x\uD800y😀')).toBe('x\uFFFDy😀');
    expect(storableText('plain')).toBe('plain');
  });
});
