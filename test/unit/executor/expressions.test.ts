import { describe, expect, it } from 'vitest';
import { evaluateCondition, interpolate } from '../../../src/executor/expressions.js';
import type { EvalEnv } from '../../../src/executor/expressions.js';

const env = (over: Partial<EvalEnv['status']> = {}): EvalEnv => ({
  contexts: {
    matrix: { python: '3.11', n: 2 },
    steps: { build: { outputs: { version: '1.2.3' }, outcome: 'failure', conclusion: 'success' } },
    env: { MODE: 'ci' },
    needs: { lint: { result: 'success', outputs: { ok: 'yes' } } },
    github: { ref: 'refs/heads/main', event_name: 'push' },
  },
  status: { failed: false, cancelled: false, ...over },
});

describe('expressions', () => {
  it('interpolates ${{ }} with GitHub functions and contexts', () => {
    expect(interpolate('py ${{ matrix.python }} v${{ steps.build.outputs.version }} ${{ env.MODE }}', env())).toBe('py 3.11 v1.2.3 ci');
    expect(interpolate("${{ format('{0}-{1}', matrix.python, matrix.n) }}", env())).toBe('3.11-2');
    expect(interpolate("${{ startsWith(github.ref, 'refs/heads/') && 'branch' || 'tag' }}", env())).toBe('branch');
    expect(interpolate('${{ needs.lint.outputs.ok }}/${{ needs.missing.result }}', env())).toBe('yes/');
    expect(interpolate("${{ '}}' }}", env())).toBe('}}');
    expect(interpolate('no expressions', env())).toBe('no expressions');
  });

  it('adds an implicit success() unless a status function is called', () => {
    expect(evaluateCondition(undefined, env())).toBe(true);
    expect(evaluateCondition(undefined, env({ failed: true }))).toBe(false);
    expect(evaluateCondition("matrix.python == '3.11'", env({ failed: true }))).toBe(false);
    expect(evaluateCondition("${{ matrix.python == '3.11' }}", env())).toBe(true);
    expect(evaluateCondition('always()', env({ failed: true }))).toBe(true);
    expect(evaluateCondition('failure()', env({ failed: true }))).toBe(true);
    expect(evaluateCondition('failure()', env())).toBe(false);
    expect(evaluateCondition('cancelled()', env({ cancelled: true }))).toBe(true);
    expect(evaluateCondition('success()', env({ cancelled: true }))).toBe(false);
    expect(evaluateCondition('success()', env({ blocked: true }))).toBe(false);
    expect(evaluateCondition("steps.build.outcome == 'failure'", env())).toBe(true);
    expect(evaluateCondition(false, env())).toBe(false);
  });

  it('rejects invalid expressions with a typed error', () => {
    expect(() => interpolate('${{ matrix. }}', env())).toThrow(/invalid expression/);
    expect(() => evaluateCondition('nosuchfn()', env())).toThrow(expect.objectContaining({ kind: 'invalid_input' }));
  });
});
