import { describe, expect, it } from 'vitest';
import { validatePatch } from '../../../src/patches/validate-patch.js';

const header = (a: string, b = a): string => `diff --git a/${a} b/${b}\n`;

describe('validatePatch', () => {
  it('accepts git diffs: edits, new and deleted files, renames, binary patches, mode changes', () => {
    const patch = [
      header('src/a.py'), '--- a/src/a.py\n', '+++ b/src/a.py\n', '@@ -1 +1 @@\n', '-x\n', '+y\n',
      header('new.txt'), 'new file mode 100644\n', '--- /dev/null\n', '+++ b/new.txt\n', '@@ -0,0 +1 @@\n', '+hi\n',
      header('old.txt'), 'deleted file mode 100644\n', '--- a/old.txt\n', '+++ /dev/null\n', '@@ -1 +0,0 @@\n', '-bye\n',
      header('from.py', 'to.py'), 'similarity index 100%\n', 'rename from from.py\n', 'rename to to.py\n',
      header('img.png'), 'index 0000000..1111111\n', 'GIT binary patch\n', 'literal 5\nMcmZQzWMN_d0003d0{{R3\n\n',
      header('run.sh'), 'old mode 100644\n', 'new mode 100755\n',
    ].join('');
    expect(validatePatch(patch, 1_000_000).files).toEqual(['from.py', 'img.png', 'new.txt', 'old.txt', 'run.sh', 'src/a.py', 'to.py']);
  });

  it('accepts a plain unified diff without the git header', () => {
    expect(validatePatch('--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n', 1000).files).toEqual(['x.py']);
  });

  it.each([
    ['', 'patch_empty'],
    ['just text\n', 'patch_invalid'],
    ['@@ -1 +1 @@\n-a\n+b\n', 'patch_invalid'],
    [`${header('/etc/passwd')}--- a//etc/passwd\n+++ b//etc/passwd\n@@ -1 +1 @@\n-a\n+b\n`, 'patch_absolute_path'],
    ['--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n', 'patch_absolute_path'],
    ['--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n', 'patch_path_traversal'],
    ['--- a/.git/hooks/pre-commit\n+++ b/.git/hooks/pre-commit\n@@ -1 +1 @@\n-a\n+b\n', 'patch_git_dir'],
    [`${header('a.py', 'b.py')}rename from a.py\nrename to ../b.py\n`, 'patch_path_traversal'],
    ['--- a/x\0\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n', 'patch_invalid'],
  ])('rejects %j with %s', (patch, code) => {
    expect(() => validatePatch(patch, 1000)).toThrow(expect.objectContaining({ code, kind: 'invalid_input' }));
  });

  it.each([
    ['diff --git "a/\\056\\056/x" "b/\\056\\056/x"\n--- "a/\\056\\056/x"\n+++ "b/\\056\\056/x"\n@@ -1 +1 @@\n-a\n+b\n', 'patch_path_traversal'],
    ['--- "a/src/\\056\\056/\\056\\056/etc"\n+++ "b/src/\\056\\056/\\056\\056/etc"\n@@ -1 +1 @@\n-a\n+b\n', 'patch_path_traversal'],
    ['--- "a/\\056git/config"\n+++ "b/\\056git/config"\n@@ -1 +1 @@\n-a\n+b\n', 'patch_git_dir'],
    ['--- "/etc/passwd"\n+++ "/etc/passwd"\n@@ -1 +1 @@\n-a\n+b\n', 'patch_absolute_path'],
    ['--- "a/x\\000y"\n+++ "b/x\\000y"\n@@ -1 +1 @@\n-a\n+b\n', 'patch_invalid'],
    ['--- "a/x\\qy"\n+++ "b/x\\qy"\n@@ -1 +1 @@\n-a\n+b\n', 'patch_invalid'],
    ['--- "a/unterminated\n+++ "b/unterminated\n@@ -1 +1 @@\n-a\n+b\n', 'patch_invalid'],
  ])('decodes git\'s quoted (octal-escaped) paths before checking them: %j → %s', (patch, code) => {
    expect(() => validatePatch(patch, 1000)).toThrow(expect.objectContaining({ code, kind: 'invalid_input' }));
  });

  it('accepts quoted paths with escapes and UTF-8 octal bytes, decoded as git writes them', () => {
    const patch = 'diff --git "a/dir with \\"quote\\"/caf\\303\\251.py" "b/dir with \\"quote\\"/caf\\303\\251.py"\n--- "a/dir with \\"quote\\"/caf\\303\\251.py"\n+++ "b/dir with \\"quote\\"/caf\\303\\251.py"\n@@ -1 +1 @@\n-a\n+b\n';
    expect(validatePatch(patch, 1000).files).toEqual(['dir with "quote"/café.py']);
  });

  it('enforces the size limit with 413', () => {
    expect(() => validatePatch(`--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+${'b'.repeat(100)}\n`, 50)).toThrow(expect.objectContaining({ code: 'patch_too_large', status: 413 }));
  });
});
