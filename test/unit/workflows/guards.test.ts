import { describe, expect, it } from 'vitest';
import { analyzeGuard } from '../../../src/workflows/guards.js';
import { replaceSecrets, secretNames, splitTopLevel, unwrapCondition } from '../../../src/workflows/expressions.js';

const context = { pathFilterJobs: new Set(['changes']) };

describe('analyzeGuard', () => {
  it('keeps conditions that hold on push', () => {
    expect(analyzeGuard("github.event_name == 'push'", context)).toEqual({ kind: 'keep' });
    expect(analyzeGuard('always()', context)).toEqual({ kind: 'keep' });
    expect(analyzeGuard("github.event_name != 'schedule'", context)).toEqual({ kind: 'keep' });
    expect(analyzeGuard("github.repository_owner == 'acme' || github.event_name == 'push'", context)).toEqual({ kind: 'keep' });
  });

  it('drops schedule-only, release-only and tag-only jobs', () => {
    expect(analyzeGuard("${{ github.event_name == 'schedule' }}", context)).toEqual({ kind: 'drop', reason: 'runs only on schedule' });
    expect(analyzeGuard("github.event_name == 'release'", context)).toEqual({ kind: 'drop', reason: 'runs only on releases' });
    expect(analyzeGuard("github.event_name == 'push' && startsWith(github.ref, 'refs/tags/v')", context)).toEqual({ kind: 'drop', reason: 'runs only on tags (release)' });
    expect(analyzeGuard("github.ref_type == 'tag'", context)).toEqual({ kind: 'drop', reason: 'runs only on tags (release)' });
  });

  it('removes fork and event guards but keeps the rest of the condition', () => {
    expect(analyzeGuard("(github.repository == 'acme/x') && success() && github.event_name == 'pull_request'", context)).toEqual({
      kind: 'rewrite',
      condition: 'success()',
      removed: [
        { clause: "github.repository == 'acme/x'", why: 'false on a fork' },
        { clause: "github.event_name == 'pull_request'", why: 'false on push' },
      ],
    });
    expect(analyzeGuard("github.event_name != 'push'", context)).toMatchObject({ kind: 'rewrite', condition: undefined });
    expect(analyzeGuard("github.ref == 'refs/heads/main'", context)).toMatchObject({ kind: 'rewrite', condition: undefined });
  });

  it('removes pull-request-only conditions that are false on push', () => {
    expect(analyzeGuard("contains(github.event.pull_request.labels.*.name, 'run-slow') && success()", context)).toEqual({
      kind: 'rewrite',
      condition: 'success()',
      removed: [{ clause: "contains(github.event.pull_request.labels.*.name, 'run-slow')", why: 'false on push: there is no pull request' }],
    });
    expect(analyzeGuard("!contains(github.event.pull_request.labels.*.name, 'skip-ci')", context)).toEqual({ kind: 'keep' });
    expect(analyzeGuard('github.event.pull_request.draft == false', context)).toEqual({ kind: 'keep' });
  });

  it('removes path-filter guards only for path-filter jobs', () => {
    expect(analyzeGuard("needs.changes.outputs.src == 'true'", context)).toMatchObject({ kind: 'rewrite', condition: undefined });
    expect(analyzeGuard("needs.build.outputs.src == 'true'", context)).toEqual({ kind: 'keep' });
  });
});

describe('expression helpers', () => {
  it('splits only at the top level', () => {
    expect(splitTopLevel("a && (b || c) && contains('x && y', d)", '&&')).toEqual(['a', '(b || c)', "contains('x && y', d)"]);
    expect(unwrapCondition('${{ a == b }}')).toBe('a == b');
  });

  it('finds and replaces secrets, leaving GITHUB_TOKEN', () => {
    const text = "${{ secrets.A }} ${{ secrets['B-2'] || 'x' }} ${{ secrets.GITHUB_TOKEN }}";
    expect(secretNames(text)).toEqual(['A', 'B-2']);
    expect(replaceSecrets(text, () => '')).toBe(" ${{ '' || 'x' }} ${{ secrets.GITHUB_TOKEN }}");
    expect(replaceSecrets('pw=${{ secrets.DB }}', () => "it's")).toBe("pw=it's");
  });
});

describe('nested alternatives', () => {
  it('drops a job that runs only on tags or on main (a release build)', () => {
    expect(analyzeGuard("success() && (startsWith(github.ref, 'refs/tags/') || github.ref == 'refs/heads/main')", context)).toEqual({
      kind: 'drop',
      reason: "runs only on tags (release); otherwise needs `github.ref == 'refs/heads/main'`",
    });
  });

  it('removes a nested alternative of pull-request-only events', () => {
    expect(analyzeGuard("always() && (github.event_name == 'pull_request' || github.event_name == 'merge_group')", context)).toEqual({
      kind: 'rewrite',
      condition: 'always()',
      removed: [{ clause: "github.event_name == 'pull_request' || github.event_name == 'merge_group'", why: 'every alternative is false on push' }],
    });
  });
});
