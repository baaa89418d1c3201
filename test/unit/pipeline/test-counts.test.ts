import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { countTestsInLog, pytestExecuted } from '../../../src/pipeline/test-counts.js';

const log = (...lines: string[]): Readable => Readable.from([lines.map((line) => `2024-06-01T00:00:00.0000000Z ${line}`).join('\r\n')]);

describe('pytestExecuted', () => {
  it.each([
    ['==================== 12 passed, 1 skipped in 0.50s ====================', 12],
    ['1 failed, 12 passed, 2 deselected, 3 warnings in 1.02s', 13],
    ['===== 3 passed, 2 xfailed, 1 xpassed, 1 error in 0.33s (0:00:00) =====', 4],
    ['no tests ran in 0.01s', 0],
    ['==== 2 errors in 0.10s ====', 0],
  ])('%s → %i executed', (line, executed) => {
    expect(pytestExecuted(line)).toBe(executed);
  });

  it.each(['Ran 12 tests in 0.5s', 'collected 12 items', 'tests passed in time', '12 apples in 0.5s', 'py311: OK (2.31=setup[1.10]+cmd[1.21] seconds)'])('%s is not a pytest summary', (line) => {
    expect(pytestExecuted(line)).toBeNull();
  });
});

describe('countTestsInLog', () => {
  it('sums every summary of a job log (tox envs, repeated pytest runs), timestamps and colours stripped', async () => {
    const counts = await countTestsInLog(log('\x1b[32m====== 10 passed in 0.20s ======\x1b[0m', 'py311: commands succeeded', '==== 1 failed, 4 passed, 1 skipped in 0.3s ====', 'congratulations :)'));
    expect(counts).toEqual({ executed: 15, summaries: ['10 passed in 0.20s', '1 failed, 4 passed, 1 skipped in 0.3s'] });
  });

  it('reads unittest: ran minus skipped and expected failures', async () => {
    expect(await countTestsInLog(log('......', '-'.repeat(70), 'Ran 12 tests in 0.004s', '', 'OK (skipped=2, expected failures=1)'))).toEqual({ executed: 9, summaries: ['Ran 12 tests: OK (skipped=2, expected failures=1)'] });
    expect(await countTestsInLog(log('Ran 3 tests in 0.001s', 'FAILED (failures=1)'))).toEqual({ executed: 3, summaries: ['Ran 3 tests: FAILED (failures=1)'] });
  });

  it('a log without a test summary is null, not zero', async () => {
    expect(await countTestsInLog(log('##[group]Run flake8', 'calc.py:1:1: F401 unused import', '##[endgroup]'))).toBeNull();
  });
});
