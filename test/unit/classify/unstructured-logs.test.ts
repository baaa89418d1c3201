import { describe, expect, it } from 'vitest';
import { classifyJob, labelTypes } from '../../../src/classify/index.js';

const stamp = (i: number): string => `2025-04-07T12:57:${String(10 + (i % 50)).padStart(2, '0')}.2943173Z`;
const raw = (lines: string[]): string => lines.map((text, i) => `${stamp(i)} ${text}`).join('\n');

describe('logs without the usual structure', () => {
  it('reads pytest behind a wrapper command from its output (make test)', async () => {
    const log = raw([
      '##[group]Run make test',
      'make test',
      'shell: /usr/bin/bash -e {0}',
      '##[endgroup]',
      '============================= test session starts ==============================',
      'E       assert 5 == 4',
      'tests/test_calc.py:5: AssertionError',
      'FAILED tests/test_calc.py::test_add - assert 5 == 4',
      '========================= 1 failed, 3 passed in 0.05s ==========================',
      'make: *** [Makefile:3: test] Error 1',
      '##[error]Process completed with exit code 2.',
    ]);
    const result = await classifyJob({ log, jobConclusion: 'failure', learnedFallback: false });
    expect(labelTypes(result).sort()).toEqual(['Assertion Error', 'Test Failure']);
    const assertion = result.labels.find((l) => l.type === 'Assertion Error');
    expect(assertion?.stepName).toBe('Run make test');
    expect(assertion?.findings.some((f) => f.path === 'tests/test_calc.py' && f.line === 5)).toBe(true);
  });

  it('infers the failing step of a tail without markers and keeps its evidence lines', async () => {
    const tail = [
      'npm error code ETARGET',
      'npm error notarget No matching version found for left-pad@^9.9.9.',
      'Process completed with exit code 1.',
      'Post job cleanup.',
      '[command]/usr/bin/git version',
      'Cleaning up orphan processes',
    ].join('\n');
    const result = await classifyJob({ log: tail, jobConclusion: 'failure', learnedFallback: false });
    expect(labelTypes(result)).toEqual(['Package Installation Error']);
    expect(result.parsed.failedSteps.map((s) => [s.title, s.inferred])).toEqual([['Log', true]]);
    const evidence = result.labels[0]?.evidence[0];
    expect(evidence?.startLine).toBe(1);
    expect(evidence?.text).toContain('npm error code ETARGET');
  });

  it('reads `gh run view --log` lines whose first line carries a byte-order mark mangled by a legacy code page', async () => {
    const lines = [
      "test\tSet up job\t\u2229\u2557\u25102026-03-23T01:58:45.6135884Z Current runner version: '2.332.0'",
      'test\tRun tests\t2026-03-23T01:59:00.0000000Z ##[group]Run python -m pytest',
      'test\tRun tests\t2026-03-23T01:59:00.0000001Z python -m pytest',
      'test\tRun tests\t2026-03-23T01:59:00.0000002Z ##[endgroup]',
      "test\tRun tests\t2026-03-23T01:59:01.0000000Z E   ModuleNotFoundError: No module named 'numpy'",
      'test\tRun tests\t2026-03-23T01:59:01.0000001Z ##[error]Process completed with exit code 2.',
    ];
    const result = await classifyJob({ log: lines.join('\n'), jobConclusion: 'failure', learnedFallback: false });
    expect(result.parsed.layout).toBe('gh-run-view');
    expect(labelTypes(result)).toEqual(['Dependency Issues']);
    expect(result.labels[0]?.stepName).toBe('Run tests');
  });

  it('reads tool output that a problem matcher turned into `##[error]` lines', async () => {
    const log = raw([
      '##[group]Run npm run lint',
      'npm run lint',
      '##[endgroup]',
      '/home/runner/work/app/app/src/page.tsx',
      "##[error]  34:30  error  'x' is assigned a value but never used  no-unused-vars",
      '\u0393\u00a3\u00fb 1 problem (1 error, 0 warnings)',
      '##[error]Process completed with exit code 1.',
    ]);
    const result = await classifyJob({ log, jobConclusion: 'failure', learnedFallback: false });
    expect(labelTypes(result)).toEqual(['Code Linting']);
    expect(result.labels[0]?.findings[0]).toMatchObject({ path: 'src/page.tsx', line: 34, column: 30 });
  });

  it('drops what cancelled matrix siblings printed when another job says why it failed', async () => {
    const lines = [
      'lint\tRun lint\t2026-01-01T00:00:00.0000000Z ##[group]Run ruff check .',
      'lint\tRun lint\t2026-01-01T00:00:00.0000001Z ##[endgroup]',
      'lint\tRun lint\t2026-01-01T00:00:01.0000000Z app/a.py:1:8: F401 [*] `os` imported but unused',
      'lint\tRun lint\t2026-01-01T00:00:01.0000001Z ##[error]Process completed with exit code 1.',
      'test (3.12)\tRun tests\t2026-01-01T00:00:02.0000000Z TypeError: Cannot read properties of undefined (reading \'x\')',
      'test (3.12)\tRun tests\t2026-01-01T00:00:03.0000000Z ##[error]The operation was canceled.',
    ];
    const result = await classifyJob({ log: lines.join('\n'), jobConclusion: 'failure', learnedFallback: false });
    expect(labelTypes(result)).toEqual(['Code Linting']);
  });

  it('lets a specific diagnostic explain the traceback it raised (a download 404 is an install error)', async () => {
    const log = raw([
      '##[group]Run buildozer android debug',
      'buildozer android debug',
      '##[endgroup]',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.11/urllib/request.py", line 563, in error',
      'urllib.error.HTTPError: HTTP Error 404: Not Found',
      '##[error]Process completed with exit code 1.',
    ]);
    const result = await classifyJob({ log, jobConclusion: 'failure', learnedFallback: false });
    expect(labelTypes(result)).toEqual(['Package Installation Error']);
  });

  it('gives a passing job that prints error-looking text no label, even read without its conclusion', async () => {
    const log = raw([
      '##[group]Run npm test',
      'npm test',
      '##[endgroup]',
      'Error: connect ECONNREFUSED 127.0.0.1:5432 (expected by the retry test)',
      'TypeError: Cannot read properties of undefined (handled)',
      'Tests:       12 passed, 12 total',
      'Cleaning up orphan processes',
    ]);
    const result = await classifyJob({ log });
    expect(result.labels).toEqual([]);
  });
  it('reads a pytest run interrupted during collection (exit 2) as no test failure', async () => {
    const tail = [
      '============================= test session starts ==============================',
      'collected 12 items / 1 error',
      '=========================== short test summary info ============================',
      'ERROR tests/test_api.py',
      '!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!',
      '1 error in 0.41s',
      'Process completed with exit code 2.',
    ].join('\n');
    const interrupted = await classifyJob({ log: tail, jobConclusion: 'failure', learnedFallback: false });
    expect(labelTypes(interrupted)).not.toContain('Test Failure');
    // Collection errors with their tracebacks cut away: mostly a test module importing what is not installed.
    expect(labelTypes(interrupted)).toEqual(['Dependency Issues']);
    const ran = tail.replace(/\n!+ Interrupted: [^\n]*/, '');
    const failed = await classifyJob({ log: ran.replace('exit code 2.', 'exit code 1.'), jobConclusion: 'failure', learnedFallback: false });
    expect(labelTypes(failed)).toContain('Test Failure');
  });

  it('reads "No files were found" as a warning when the upload step echoed if-no-files-found: warn', async () => {
    const upload = (mode: string): string =>
      [
        'with:',
        '  name: test-results',
        '  path: test-results/',
        `  if-no-files-found: ${mode}`,
        'No files were found with the provided path: test-results/. No artifacts will be uploaded.',
      ].join('\n');
    expect(labelTypes(await classifyJob({ log: upload('warn'), jobConclusion: 'failure', learnedFallback: false }))).toEqual([]);
    expect(labelTypes(await classifyJob({ log: upload('error'), jobConclusion: 'failure', learnedFallback: false }))).toEqual(['Configuration Error']);
  });

  it('does not read setup-python downloading a version missing from the cache as an environment error', async () => {
    const tail = [
      'Version 3.9 was not found in the local cache',
      'Version 3.9 is available for downloading',
      'Download from "https://github.com/actions/python-versions/releases/download/3.9.13-1/python-3.9.13-linux-x64.tar.gz"',
      '=========================== 1 failed, 5 passed in 0.20s ===========================',
      'Process completed with exit code 1.',
    ].join('\n');
    expect(labelTypes(await classifyJob({ log: tail, jobConclusion: 'failure', learnedFallback: false }))).toEqual(['Test Failure']);
  });

  it('reads a JavaScript error echoed from captured stderr as no Python exception, and a vitest error as a runtime error', async () => {
    const stderr = [
      'stderr | src/auth.test.ts > signs in anonymously',
      'TypeError: fetch failed',
      '    at node:internal/deps/undici/undici:14902:13',
      ' Test Files  1 failed | 3 passed (4)',
      'Process completed with exit code 1.',
    ].join('\n');
    expect(labelTypes(await classifyJob({ log: stderr, jobConclusion: 'failure', learnedFallback: false }))).toEqual(['Test Failure']);
    const thrown = [
      ' FAIL  test/cli.test.ts > cli > applies the plan',
      'Error: [apply_validation] Failed to apply changes to resource: "github-cli"',
      ' Test Files  1 failed | 3 passed (4)',
      'Process completed with exit code 1.',
    ].join('\n');
    expect(labelTypes(await classifyJob({ log: thrown, jobConclusion: 'failure', learnedFallback: false })).sort()).toEqual(['Runtime Error', 'Test Failure']);
  });

  it("reads Node's ES-module linking error as a runtime error, not a syntax error", async () => {
    const tail = [
      "import { ServerStyleSheet } from 'styled-components';",
      '         ^^^^^^^^^^^^^^^^',
      "SyntaxError: Named export 'ServerStyleSheet' not found. The requested module 'styled-components' is a CommonJS module, which may not support all module.exports as named exports.",
      'Process completed with exit code 1.',
    ].join('\n');
    expect(labelTypes(await classifyJob({ log: tail, jobConclusion: 'failure', learnedFallback: false }))).toEqual(['Runtime Error']);
  });
});
