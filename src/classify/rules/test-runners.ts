import { ERROR_TYPES, type ErrorType } from '../../domain/error-types.js';
import type { Rule } from './rule.js';
import { MINITEST_RULES } from './minitest.js';

/** Node aborting (and dumping core) when its heap runs out: the runner's memory, not a crash of the code. */
export const NODE_HEAP_EXHAUSTED = /JavaScript heap out of memory|Reached heap limit Allocation failed/;

/**
 * Playwright prints a flaky test (failed, then passed on a retry) as it prints a failed one: when the step says
 * something else failed, its headers and time-outs yield to that.
 */
const FLAKY_MAY_EXPLAIN: ErrorType[] = ERROR_TYPES.filter((type) => type !== 'Test Failure' && type !== 'Assertion Error');

/**
 * Test runners recognised by their own summaries, so they count whatever command ran them: vitest, Playwright,
 * node:test, Flutter/Dart, RSpec, .NET, nextest, Newman, and runners that only print `N tests failed`.
 */
export const TEST_RUNNER_RULES: Rule[] = [
  {
    // Playwright's web-first assertions wait, then fail as a time-out (`Timed out 5000ms waiting for
    // expect(locator).toBeVisible()`, and the call log's `- expect.toBeVisible with timeout 5000ms`).
    id: 'playwright-expect-timeout',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'playwright',
    yieldsTo: FLAKY_MAY_EXPLAIN,
    linePattern: /^\s*(?:Error: )?Timed out \d+ms waiting for expect\(|^\s+- expect\.(?:not\.)?to\w+ with timeout \d+ms$/,
    context: { after: 3 },
    example: { command: 'pnpm exec playwright test', lines: ['    Error: Timed out 90000ms waiting for expect(locator).toBeVisible()', "    Locator: locator('main').first()", '    Expected: visible'] },
  },
  {
    // Playwright's list and line reporters number the tests that failed: `  1) [chromium] › tests/a.spec.ts:3:1 › title`
    // (without projects, `  1) tests/a.spec.ts:3:1 › title`).
    id: 'playwright-failed-test',
    type: 'Test Failure',
    tool: 'playwright',
    yieldsTo: FLAKY_MAY_EXPLAIN,
    linePattern: /^\s*\d+\) (?:\[[^\]]+\] › \S+:\d+:\d+|\S+(?:\.spec\.|\.test\.)[cm]?[jt]sx?:\d+:\d+) › /,
    example: { command: 'pnpm exec playwright test', lines: ['  3) [chromium] › tests/chromatic/sites.test.ts:34:1 › docs page ───────────'] },
  },
  {
    // Groovy's power assertion (Spock, Maven invoker's verify.groovy): `Assertion failed:`, then the expression.
    id: 'groovy-power-assert',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'groovy',
    previousPattern: /^Assertion failed: ?$/,
    linePattern: /^assert \S/,
    context: { after: 3 },
    example: { command: 'mvn -B verify', lines: ['Assertion failed: ', 'assert log.contains(it)', '       |   |        |', "       |   false    '6th Fibonacci number is 8'"] },
  },
  {
    // mocha's failure list names a hook that threw: the tests under it did not run.
    id: 'mocha-hook-failed',
    type: 'Test Failure',
    tool: 'mocha',
    linePattern: /^\s*\d+\) "(?:before|after) (?:all|each)" hook(?: for "[^"]*")? in /,
    example: { command: 'npm run test:e2e', lines: ['  1) "before all" hook in "{root}":', "     browserType.launch: Executable doesn't exist at /home/runner/.cache/ms-playwright/chromium-1045/chrome-linux/chrome"] },
  },
  {
    // xUnit names the exception a test threw on the line after `[FAIL]` (assertions throw Xunit.Sdk's, Shouldly's,
    // Moq's, NSubstitute's or FluentAssertions' exceptions: those are failed assertions, read elsewhere).
    id: 'xunit-test-exception',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'xunit',
    linePattern: /^\[xUnit\.net [\d:.]+\]\s+(?!Xunit\.Sdk\.|Shouldly\.|Moq\.|NSubstitute\.|FluentAssertions\.)(?:\w+\.)+\w*Exception : /,
    example: { command: 'dotnet test', lines: ['[xUnit.net 00:00:05.82]     Tests.ProgramTests.Converts [FAIL]', "[xUnit.net 00:00:05.82]       System.ArgumentOutOfRangeException : Index was out of range. (Parameter 'chunkLength')"] },
  },
  {
    // chai's message form (vitest, mocha): only a test's assertion prints it, so a test failed too.
    id: 'chai-assertion',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'vitest',
    linePattern: /^\s*AssertionError: expected .+ to (?:not )?(?:be|equal|deeply|have|include|contain|match|throw|satisfy|exist)\b/,
    context: { after: 3 },
    example: { command: 'npx vitest run', lines: ["AssertionError: expected null to be 'value' // Object.is equality"] },
  },
  {
    // vitest prints the extra properties of an error a test threw under it, and only for errors (not assertions).
    id: 'vitest-serialized-error',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'vitest',
    linePattern: /^Serialized Error: \{ /,
    context: { before: 3 },
    example: { command: 'npx vitest run', lines: ['DatabaseError: Failed to open table "chunks"', ' ❯ src/__tests__/e2e/cache.e2e.test.ts:23:5', "Serialized Error: { code: 'DATABASE_OPEN_TABLE_FAILED' }"] },
  },
  {
    // npm's own line when `npm test` exits non-zero (npm 6 and before); the test script may run a linter, so it
    // counts only when nothing else in the step says what failed.
    id: 'npm-test-failed',
    type: 'Test Failure',
    tool: 'npm',
    fallback: true,
    linePattern: /^npm ERR! Test failed\.\s+See above for more details\.$/,
    example: { command: 'npm test', lines: ['npm ERR! Test failed.  See above for more details.'] },
  },
  {
    // AVA's diff under a failed `t.deepEqual` / `t.is`.
    id: 'ava-difference',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'ava',
    linePattern: /^\s*Difference(?: \(- actual, \+ expected\))?:$/,
    context: { after: 3 },
    example: { command: 'npx ava', lines: ['  test/level.js:42', '  Difference:', "  - 'error'", "  + 'warn'"] },
  },
  ...MINITEST_RULES,
  {
    // expect() is a test framework's (jest, vitest, Playwright): a failed assertion in a failed test.
    id: 'js-expect-failed',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'vitest',
    // Playwright prints a flaky test's error too: it yields when the step says something else failed.
    yieldsTo: FLAKY_MAY_EXPLAIN,
    linePattern: /^\s*(?:Error: )?expect\((?!received\))[\w.]*\)\.(?:not\.)?\w+\(/,
    context: { after: 3 },
    example: { command: 'npx playwright test', lines: ['Error: expect(locator).toBeVisible() failed', '', "Locator: locator('main').first()", 'Expected: visible'] },
  },
  {
    // A bare AssertionError (node:assert in a script) says nothing of a test.
    id: 'js-assertion',
    type: 'Assertion Error',
    tool: 'vitest',
    linePattern: /^\s*AssertionError(?: \[ERR_ASSERTION\])?: /,
    context: { after: 3 },
    example: { command: 'node --test', lines: ['AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:'] },
  },
  {
    // vitest names the error right under the failed test's header: an assertion is read above, a test (or hook) that
    // ran out of time is only a failed test, anything else was thrown by the code under test.
    id: 'vitest-test-error',
    type: 'Runtime Error',
    tool: 'vitest',
    linePattern: /^(?!AssertionError\b)(?:[A-Z]\w*)?Error: (?!expect\(|(?:Test|Hook) timed out in \d+ ?ms\b)/,
    previousPattern: /^\s*FAIL\s+\S+\.[cm]?[jt]sx?\s+>/,
    context: { before: 1, after: 1 },
    example: { command: 'npx vitest run', lines: [' FAIL  test/cli.test.ts > cli > applies the plan', 'Error: [apply_validation] Failed to apply changes to resource'] },
  },
  {
    // RSpec prints `Failure/Error:` under a failed example's number (`1) User#name …`): a test failed.
    id: 'rspec-assertion',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'rspec',
    linePattern: /^\s*Failure\/Error: (?:expect|assert|.*\.to (?:eq|include|be|match|raise_error)|.*\.should(?:_not)? )/,
    context: { after: 3 },
    example: { command: 'bundle exec rspec', lines: ['     Failure/Error: expect(last_response.status).to eq(403)'] },
  },
  {
    id: 'xunit-assertion',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'xunit',
    linePattern: /Failed asserting that |XCTAssert\w* failed|^\s*Assert\.\w+ failed\. |Assertion with [=!<>]+ failed|^\s*Assert\.\w+\(\) Failure|^\s*Expected: .*\bBut was: /,
    context: { before: 1, after: 2 },
    example: { command: 'vendor/bin/phpunit', lines: ['Failed asserting that 4 is identical to 5.'] },
  },
  {
    id: 'newman-assertion',
    type: 'Assertion Error',
    tool: 'newman',
    linePattern: /^\s*\d+\.\s+AssertionError\s{2,}/,
    context: { after: 2 },
    example: { command: 'newman run collection.json', lines: [' 1.  AssertionError  ID matches'] },
  },
  {
    id: 'test-summary-failed',
    type: 'Test Failure',
    tool: 'test-runner',
    linePattern: /^\s*Test Files\s+[1-9]\d* failed|^\s*Tests\s+[1-9]\d* failed|^\s*[1-9]\d* failed$|^\s*[1-9]\d* failing$|^# fail [1-9]\d*$|^\d\d:\d\d \+\d+(?: ~\d+)?(?: -\d+)?: Some tests failed\.|\b\d{1,7} tests? passed, [1-9]\d{0,6} failed\b|^[1-9]\d* examples?, [1-9]\d* failures?|^Failed!\s+-\s+Failed:\s+[1-9]|^Test Run Failed\.$|^\s+Summary \[.*\] \d+ tests? run: \d+ passed(?:, \d+ \w+)*, [1-9]\d* failed|\b[1-9]\d{0,6} (?:test\(s\)|tests?) failed\b|^\s*#\s+failure\s+detail\s*$|^\s*FAIL\s+\S+\.(?:[cm]?[jt]sx?)\s+>|Results: \d{1,7}\/\d{1,7} passed, [1-9]\d{0,6} failed|smoke test\(s\) FAILED|^FAILURES!$|^Tests: \d{1,7}, Assertions: \d{1,7}, (?:Failures|Errors): [1-9]|\d{1,3}% tests passed, [1-9]\d{0,6} tests failed out of|Executed \d{1,7} tests?, with [1-9]\d{0,6} failures?|^\d{1,7} tests?, [1-9]\d{0,6} failures?|^Test Suite '[^']+' failed at/,
    example: { command: 'npm test', lines: [' Test Files  1 failed | 120 passed (121)'] },
  },
  {
    id: 'flutter-test-exception',
    type: 'Runtime Error',
    tool: 'flutter',
    linePattern: /^══╡ EXCEPTION CAUGHT BY [\w ]+╞═|^The following \w+(?:Error|Exception) was thrown|^Multiple exceptions \(\d+\) were detected during the running of the current test, and at least one was/,
    context: { after: 2 },
    example: { command: 'flutter test', lines: ['══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK ╞════════════════'] },
  },
  {
    id: 'js-runtime-error',
    type: 'Runtime Error',
    tool: 'node',
    linePattern: /^\s*(?:Uncaught )?TypeError: (?:.* is not a function|Cannot read properties of (?:undefined|null)|Cannot set properties of|.* is not iterable|.* is not a constructor)|^\s*ReferenceError: \S+ is not defined|TestingLibraryElementError: |Error occurred prerendering page|An error occurred while rendering frame|^\s*SyntaxError: (?:Named export '[^']*' not found|The requested module '[^']*' does not provide an export named)/,
    context: { after: 1 },
    example: { command: 'npx vitest run', lines: ['TypeError: Cannot read properties of undefined (reading \'length\')'] },
  },
  {
    // Playwright's summary of errors thrown outside any test (fixtures, hooks, a crashed page or browser).
    id: 'playwright-error-outside-tests',
    type: 'Runtime Error',
    tool: 'playwright',
    linePattern: /^\s+[1-9]\d{0,6} errors? (?:was|were) not a part of any test\b/,
    example: { command: 'npx playwright test', lines: ['  2 errors were not a part of any test, see above for details'] },
  },
  {
    id: 'native-crash',
    type: 'Runtime Error',
    tool: 'runtime',
    // Node aborts (and dumps core) when its heap runs out: that is the runner's memory, an Environment Error. The
    // disarm holds for the rest of the step, so a later crash in the same step goes unlabelled (rare, accepted).
    disarmPattern: NODE_HEAP_EXHAUSTED,
    linePattern: /Segmentation fault|\(core dumped\)|\*\*\*Exception: SegFault|\(SEGFAULT\)$|(?:^|[.FEsx])Fatal Python error: |^(?:##\[error\])?Process completed with exit code 13[49]\.|SIGSEGV|SIGABRT|^Abort trap|^terminate called after throwing an instance of/,
    context: { before: 2 },
    example: { command: 'python -m pytest', lines: ['Fatal Python error: Segmentation fault'] },
  },
  {
    // jest's explanation when its transform could not parse a file (ES modules or TypeScript it was not set up for).
    id: 'jest-unexpected-token',
    type: 'Syntax Error',
    tool: 'jest',
    linePattern: /^\s*Jest encountered an unexpected token$/,
    context: { before: 2, after: 2 },
    example: { command: 'npx jest', lines: ['  ● Test suite failed to run', '', '    Jest encountered an unexpected token'] },
  },
  {
    id: 'jest-suite-syntax',
    type: 'Syntax Error',
    tool: 'jest',
    linePattern: /^\s+SyntaxError: (?!Unexpected token .* in JSON|Unexpected end of JSON|.*\bis not valid JSON$|Named export '[^']*' not found|The requested module '[^']*' does not provide an export named)(.*)$/,
    previousPattern: /^\s*$|Jest encountered an unexpected token|Details:|●/,
    context: { before: 2 },
    example: { command: 'npx jest', lines: ['  ● Test suite failed to run', '', "    SyntaxError: Cannot use 'import.meta' outside a module"] },
  },
  {
    // After jest's: a Python SyntaxError indented, as pip prints a failing setup.py's output (four spaces in).
    id: 'python-syntax-error-indented',
    type: 'Syntax Error',
    tool: 'python',
    linePattern: /^\s+(?:SyntaxError|IndentationError|TabError): (?!Named export '[^']*' not found|The requested module '[^']*' does not provide an export named|Unexpected token .* in JSON|Unexpected end of JSON|.*\bis not valid JSON$)(.*)$/,
    previousPattern: /^\s+(?:\S.*|\^+)$/,
    context: { before: 4 },
    example: { command: 'pip install .', lines: ['      File "/tmp/pip-build/pkg/setup.py", line 17', "        x = f'{", '    SyntaxError: invalid syntax'] },
  },
];
