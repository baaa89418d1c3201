import { describe, expect, it } from 'vitest';
import { headerPaths, unquote } from '../../../src/git/apply-patch/patch-paths.js';

describe('patch header paths', () => {
  it('collects old and new names of renames, copies, edits and binary diffs', () => {
    const patch = [
      'diff --git a/old name.py b/new name.py',
      'similarity index 90%',
      'rename from old name.py',
      'rename to new name.py',
      'diff --git a/img.png b/img.png',
      'index 0123..4567 100644',
      'GIT binary patch',
      'diff --git a/run.sh b/run.sh',
      'old mode 100644',
      'new mode 100755',
      'diff --git a/src/x.py b/src/x.py',
      '--- a/src/x.py\t2024-01-01',
      '+++ b/src/x.py',
      'diff --git "a/t\\303\\251st\\tx" "b/t\\303\\251st\\tx"',
      '--- /dev/null',
      '+++ "b/t\\303\\251st\\tx"',
    ].join('\n');
    expect(new Set(headerPaths(patch))).toEqual(new Set(['old name.py', 'new name.py', 'img.png', 'run.sh', 'src/x.py', 'tést\tx']));
  });

  it('unquotes git C-style names', () => {
    expect(unquote('"a\\"b\\\\c"')).toBe('a"b\\c');
    expect(unquote('plain')).toBe('plain');
  });
});
