import { describe, expect, it } from 'vitest';
import { runLocalRows, verdictLines } from '../../../src/cli/run-local-result.js';
import type { JobWithSteps, SubmissionSummary } from '../../../src/db/index.js';
import { renderResultSummary } from '../../../src/pipeline/summary.js';

const submission = (over: Partial<SubmissionSummary>): SubmissionSummary =>
  ({
    id: '0b8d6c64-7a51-4b7e-9d7e-3c1d1c0f6a11', instanceId: 'inst-1', kind: 'candidate', state: 'infra_error', verdict: 'invalid', outcome: 'infra_error', reason: 'network_unreachable',
    reasonDetails: { job: 'test', step: 'Install', lines: [{ line: 31, text: "WARNING: Retrying (Retry(total=0)) after connection broken by 'NewConnectionError(... [Errno -2] Name or service not known')'" }, { line: 35, text: '##[error]Process completed with exit code 1.' }], rule: 'network-unreachable' },
    errorMessage: null, standardization: null, revertedFiles: [], ...over,
  }) as SubmissionSummary;

const job = (over: Partial<JobWithSteps>): JobWithSteps =>
  ({ name: 'test', status: 'completed', conclusion: 'failure', failedStep: 'Install', outcome: 'infra_error', outcomeReason: 'network_unreachable', failureLabels: [], steps: [], log: null, ...over }) as JobWithSteps;

describe('the result summary (check run) and run-local', () => {
  it('states the outcome, its reason and evidence, and says an infra error is not a failed repair', () => {
    const text = renderResultSummary(submission({}), [job({}), job({ name: 'lint', conclusion: 'success', failedStep: null, outcome: 'passed', outcomeReason: null })], [], 'invalid', 'http://x/v1/submissions/1');
    expect(text).toContain('## ci-replay: invalid');
    expect(text).toContain('**Outcome: infra_error** (`network_unreachable`): the replay did not evaluate the patch; this is not counted as a failed repair.');
    expect(text).toContain('Evidence from job "test", step "Install":');
    expect(text).toContain('35: ##[error]Process completed with exit code 1.');
    expect(text).toContain('| Job | Result | Outcome | Failed step | Error types |');
    expect(text).toContain('| test | failure | infra_error (network_unreachable) | Install |  |');
    expect(text).toContain('| lint | success | passed |  |  |');
  });

  it('marks the learned fallback\'s types as learned, in the check run\'s table and section and in run-local\'s table', () => {
    const labels = [
      { type: 'Test Failure', tool: 'learned-fallback', stepName: 'Test', evidence: [{ text: 'some tests did not pass' }] },
      { type: 'Code Linting', tool: 'flake8', stepName: 'Lint', evidence: [{ text: "F401 'os' imported but unused" }] },
    ];
    const failed = job({ failedStep: 'Test', outcome: 'failed', outcomeReason: 'step_failed', failureLabels: labels } as unknown as Partial<JobWithSteps>);
    const text = renderResultSummary(submission({ state: 'completed', verdict: 'failed', outcome: 'failed', reason: null }), [failed], labels as never, 'failed', 'http://x');
    expect(text).toContain('| test | failure | failed | Test | Test Failure (learned), Code Linting |');
    expect(text).toContain('**Test Failure (learned)** (learned-fallback) in step "Test"');
    expect(text).toContain('**Code Linting** (flake8) in step "Lint"');
    expect(runLocalRows([failed])[1]?.[3]).toBe('Test Failure (learned), Code Linting');
  });

  it('shows a failed outcome without the not-evaluated note', () => {
    const text = renderResultSummary(submission({ state: 'completed', verdict: 'failed', outcome: 'failed', reason: null, reasonDetails: { job: 'test', step: 'Test', lines: [] } }), [job({ failedStep: 'Test', outcome: 'failed', outcomeReason: 'step_failed' })], [], 'failed', 'http://x');
    expect(text).toContain('**Outcome: failed**\n');
    expect(text).not.toContain('not counted as a failed repair');
    expect(text).toContain('| test | failure | failed | Test |  |');
  });

  it('prints run-local\'s table with an outcome column and the verdict line with the reason and evidence', () => {
    const rows = runLocalRows([job({})]);
    expect(rows).toEqual([['job', 'result', 'failed step', 'error types', 'outcome'], ['test', 'failure', 'Install', '', 'infra_error (network_unreachable)']]);
    const lines = verdictLines(submission({}));
    expect(lines[0]).toBe('verdict: invalid — outcome infra_error (network_unreachable), job "test", step "Install"');
    expect(lines[2]).toBe('  35: ##[error]Process completed with exit code 1.');
    expect(verdictLines(submission({ state: 'completed', verdict: 'passed', outcome: 'passed', reason: null, reasonDetails: null }))).toEqual(['verdict: passed']);
  });
});
