import { describe, expect, it } from 'vitest';
import { mapOwner, parseOwnerMap } from '../../../src/catalog/owner-map.js';
import { parseInstanceObject } from '../../../src/catalog/parse-instance.js';
import { isAppError } from '../../../src/errors.js';

const row = { id: 'r1', repo_owner: 'forky', repo_name: 'calc', workflow_path: '.github/workflows/ci.yml', workflow: 'on: push', sha_fail: 'a'.repeat(40) };

describe('import: owner map and required fields', () => {
  it('maps a dataset owner per repository (the repository key wins over the owner key), case-insensitively', () => {
    const map = parseOwnerMap(JSON.stringify({ 'Forky/calc': 'upstream', forky: 'other' }));
    expect(mapOwner(map, 'forky', 'CALC')).toBe('upstream');
    expect(mapOwner(map, 'forky', 'lib')).toBe('other');
    expect(mapOwner(map, 'someone', 'calc')).toBeUndefined();
    const parsed = parseInstanceObject(row, 1, { ownerMap: map, upstreamOwner: 'ignored-for-mapped' });
    expect(parsed.ok && [parsed.instance.repoOwner, parsed.instance.sourceRepoOwner]).toEqual(['upstream', 'forky']);
    const unmapped = parseInstanceObject({ ...row, repo_owner: 'someone' }, 2, { ownerMap: map, upstreamOwner: 'up' });
    expect(unmapped.ok && unmapped.instance.repoOwner).toBe('up');
  });

  it('names every bad owner-map entry', () => {
    for (const text of ['[1]', 'not json', JSON.stringify({ 'a/b/c': 'x', ok: 'bad/value', fine: 'good' })]) {
      const error = (() => {
        try {
          parseOwnerMap(text, 'owners.json');
          return null;
        } catch (caught) {
          return caught;
        }
      })();
      expect(isAppError(error) && error.code).toBe('invalid_owner_map');
      expect((error as Error).message).toContain('owners.json');
    }
    expect(() => parseOwnerMap(JSON.stringify({ 'a/b/c': 'x', ok: 'bad/value' }))).toThrow(/key "a\/b\/c" is not owner or owner\/name; "ok": the upstream owner must be a GitHub account name/);
  });

  it('says "<field> is required" for a missing field, with the line, and keeps type errors as they are', () => {
    const { id: _id, ...noId } = row;
    expect(parseInstanceObject(noId, 7)).toEqual({ ok: false, error: { line: 7, id: null, code: 'invalid_row', message: 'id is required' } });
    const { sha_fail: _sha, workflow: _workflow, ...two } = row;
    const missing = parseInstanceObject(two, 3);
    expect(!missing.ok && missing.error.message).toBe('workflow is required; sha_fail is required');
    const wrong = parseInstanceObject({ ...row, sha_fail: 'xyz' }, 4);
    expect(!wrong.ok && wrong.error.message).toBe('sha_fail: must be a commit SHA (hex)');
    expect(!parseInstanceObject([1], 5).ok && (parseInstanceObject([1], 5) as { error: { message: string } }).error.message).toBe('row: must be a JSON object');
  });
});
