import { describe, expect, it } from 'vitest';
import { upstreamUrl } from '../../../src/git/mirror-cache.js';
import { assertBranchName, assertCommitSha, assertNoUserinfo } from '../../../src/git/validate.js';
import { isAppError } from '../../../src/errors.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return isAppError(error) ? `${error.kind}/${error.code}` : 'other';
  }
}

describe('git input validation', () => {
  it('refuses URLs that carry userinfo', () => {
    expect(codeOf(() => assertNoUserinfo('https://token@github.com/a/b.git'))).toBe('invalid_input/invalid_url');
    expect(codeOf(() => assertNoUserinfo('https://u:p@github.com/a/b.git'))).toBe('invalid_input/invalid_url');
    expect(codeOf(() => assertNoUserinfo('git@github.com:a/b.git'))).toBe('invalid_input/invalid_url');
    expect(codeOf(() => assertNoUserinfo('https://github.com/a/b.git'))).toBeUndefined();
    expect(codeOf(() => assertNoUserinfo('/srv/git/bench.git'))).toBeUndefined();
  });

  it('normalizes upstream locations', () => {
    expect(upstreamUrl('/srv/up stream.git')).toBe('file:///srv/up%20stream.git');
    expect(upstreamUrl('https://github.com/a/b.git')).toBe('https://github.com/a/b.git');
    expect(codeOf(() => upstreamUrl('up.git'))).toBe('invalid_input/invalid_url');
    expect(codeOf(() => upstreamUrl('ext::sh -c evil'))).toBe('invalid_input/invalid_url');
  });

  it('accepts benchmark branch names and rejects unsafe ones', () => {
    expect(codeOf(() => assertBranchName('ci-replay/run-12/sub-3'))).toBeUndefined();
    for (const bad of ['', '-f', '/x', 'x/', 'a..b', 'a//b', '.x', 'a/.b', 'x.lock', 'a b', 'a~1', 'a:b']) {
      expect(codeOf(() => assertBranchName(bad))).toBe('invalid_input/invalid_branch');
    }
  });

  it('requires full commit SHAs', () => {
    expect(codeOf(() => assertCommitSha('a'.repeat(40)))).toBeUndefined();
    expect(codeOf(() => assertCommitSha('A'.repeat(40)))).toBe('invalid_input/invalid_sha');
    expect(codeOf(() => assertCommitSha('abc123'))).toBe('invalid_input/invalid_sha');
  });
});
