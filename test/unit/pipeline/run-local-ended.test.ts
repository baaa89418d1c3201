import { describe, expect, it } from 'vitest';
import { runLocalTable, verdictLines } from '../../../src/cli/run-local-result.js';
import type { SubmissionSummary } from '../../../src/db/index.js';

const ended = (over: Partial<SubmissionSummary>): SubmissionSummary =>
  ({
    id: '0b8d6c64-7a51-4b7e-9d7e-3c1d1c0f6a11', instanceId: 'inst-1', kind: 'candidate', state: 'patch_failed', verdict: 'invalid', outcome: null, reason: 'patch_failed',
    reasonDetails: null, errorMessage: 'error: patch failed: src/a.py:3\nerror: src/a.py: patch does not apply', standardization: null, revertedFiles: [], ...over,
  }) as SubmissionSummary;

describe('run-local for a submission that ended before anything ran', () => {
  it('prints the patch_failed outcome and git\'s reason instead of an empty job table', () => {
    expect(runLocalTable([], ended({}))).toEqual(['no job ran: the submission ended patch_failed before anything was run']);
    expect(verdictLines(ended({}))).toEqual([
      'verdict: invalid — outcome patch_failed: the patch does not apply at sha_fail; nothing was pushed',
      '  error: patch failed: src/a.py:3',
      '  error: src/a.py: patch does not apply',
    ]);
  });

  it('shows the recorded patch_failed outcome the same way, with its reason code', () => {
    expect(verdictLines(ended({ outcome: 'patch_failed', reason: 'patch_does_not_apply', errorMessage: 'error: src/absent.py: does not exist in index' }))).toEqual([
      'verdict: invalid — outcome patch_failed (patch_does_not_apply): the patch does not apply at sha_fail; nothing was pushed',
      '  error: src/absent.py: does not exist in index',
    ]);
  });

  it('names the reason of an infra_error ended by the preflight', () => {
    const lines = verdictLines(ended({ state: 'infra_error', reason: 'not_replayable', errorMessage: 'job build uses services' }));
    expect(lines).toEqual(['verdict: invalid — outcome infra_error (not_replayable): the replay could not be carried out', '  job build uses services']);
  });
});
