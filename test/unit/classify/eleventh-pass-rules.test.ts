import { describe, expect, it } from 'vitest';
import { classifyJob } from '../../../src/classify/index.js';
import { stripTaskPrefixes } from '../../../src/classify/task-prefix.js';
import { tailTypes } from './tail-types.js';

/**
 * Rules from the eleventh pass's tuning-half misses (issue 16), as benchmark-style tails, and the lines that must
 * not label.
 */

describe('eleventh pass: rules from real logs', () => {
  it.each([
    ["a Go test's panic, recovered and raised again by the testing package", ['panic: runtime error: index out of range [2] with length 1 [recovered]', '\tpanic: runtime error: index out of range [2] with length 1', 'goroutine 232 [running]:'], ['Runtime Error', 'Test Failure']],
    ['a cargo test that panicked on an unwrap', ['running 2 tests', 'test typedarray ... FAILED', "\tthread 'typedarray' panicked at 'called `Result::unwrap()` on an `Err` value: ()', libcore\\result.rs:945:5", 'test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out'], ['Runtime Error', 'Test Failure']],
    ["Playwright's web-first assertion timing out", ['    Retry #2 ───────────', '    Error: Timed out 90000ms waiting for expect(locator).toBeVisible()', "    Locator: locator('main').first()", '    Expected: visible', '    Received: <element(s) not found>'], ['Assertion Error', 'Test Failure']],
    ["Playwright's call log and numbered failure header", ['      - expect.toBeVisible with timeout 90000ms', "      - waiting for locator('main').first()", '  3) [chromium] › tests/chromatic/sites.test.ts:34:1 › docs page ─────────'], ['Assertion Error', 'Test Failure']],
    ["Gradle's test logger, no task lines", ['pcGenGUIPfrpgRogueTest > testCode() FAILED', "    org.opentest4j.AssertionFailedError: Expected text value '+8' but was '+9'", '        at app//org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)'], ['Assertion Error', 'Test Failure']],
    ['JUnit frames alone name the JVM build', ["org.opentest4j.AssertionFailedError: expected: <4> but was: <5>", '\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)'], ['Assertion Error', 'Test Failure']],
    ['a cargo test that panicked on an unwrap, Rust 1.73 and later', ['   Compiling calc v0.1.0 (/w/calc)', "thread 'tests::parses' panicked at src/lib.rs:10:5:", 'called `Result::unwrap()` on an `Err` value: ParseError', 'test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out'], ['Runtime Error', 'Test Failure']],
    ['Playwright without projects', ['  1) tests/login.spec.ts:12:5 › logs in ─────────', '    Error: Timed out 5000ms waiting for expect(locator).toHaveText(expected)'], ['Assertion Error', 'Test Failure']],
    ['ctest crashes', ['4/5 Test #43: depgraph-links-ok ................***Exception: SegFault  0.32 sec', '0% tests passed, 5 tests failed out of 5'], ['Runtime Error', 'Test Failure']],
    ['mypy stopped by errors', ['/opt/py/site-packages/numpy/__init__.pyi:737: error: Incompatible types in assignment  [assignment]', 'Found 1 error in 1 file (errors prevented further checking)'], ['Type Checking']],
    ['pnpm workspace without packages', [' ERROR  packages field missing or empty', 'For help, run: pnpm help install'], ['Configuration Error']],
    ['git clone into a directory the runner may not write', ['+ git clone --recursive --depth 1 https://github.com/roothide/theos.git /opt/theos', "fatal: could not create work tree dir '/opt/theos': Permission denied"], ['Environment Error']],
    ['duplicate classes on the classpath', ['Duplicate class kotlin.collections.jdk8.CollectionsJDK8Kt found in modules kotlin-stdlib-1.8.22 (org.jetbrains.kotlin:kotlin-stdlib:1.8.22) and kotlin-stdlib-jdk8-1.6.21'], ['Dependency Issues']],
    ['Prettier quoted indented', ['  [warn] storybook/src/stories/Cell.stories.tsx', '  [warn] Code style issues found in 5 files. Run Prettier with --write to fix.'], ['Code Formatting']],
    ['pre-commit before 1.0, a fixer hook', ['Trim Trailing Whitespace.................................................Failed', 'hookid: trailing-whitespace', '', 'Files were modified by this hook. Additional output:', '', 'Fixing rpackage/tests/testthat/test-content.R'], ['Code Formatting']],
    ['cargo install that does not build', [':: error: failed to compile `cargo-c v0.10.23+cargo-0.97.1`, intermediate artifacts can be found at `/root/.cache/cargo-target`.', '::   rustc 1.94.0 is not supported by the following package:'], ['Package Installation Error']],
    ['CodeQL autobuild, quoted indented', ['  Error: We were unable to automatically build your code. Please replace the call to the autobuild action with your custom build steps.'], ['Configuration Error']],
  ] as const)('%s', async (_what, lines, types) => {
    expect(await tailTypes([...lines])).toEqual([...types]);
  });

  it("a build script's panic is no test's, and Node's abort after its heap ran out is the runner's memory", async () => {
    const buildScript = ['   Compiling tectonic_bridge_graphite2 v0.2.2', "thread 'main' panicked at 'called `Result::unwrap()` on an `Err` value: Could not run `pkg-config`', build.rs:12:5"];
    const rules = (await classifyJob({ log: [...buildScript, 'Process completed with exit code 101.'].join('\n'), jobConclusion: 'failure', learnedFallback: false })).labels.flatMap((l) => l.evidence.map((e) => e.rule));
    expect(rules).toContain('node-uncaught');
    expect(rules).not.toContain('cargo-test-panic');
    const oom = ['FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', ' 1: 0xb7a940 node::Abort() [node]', 'Aborted (core dumped)'];
    expect(await tailTypes(oom)).toEqual(['Environment Error']);
    expect(await tailTypes(['Segmentation fault (core dumped)'])).toEqual(['Runtime Error']);
  });

  it("strips Buildkite's timestamps: copied from its web view when they recur, raw as escape sequences", async () => {
    const lines = ['panic: x', 'goroutine 1', 'main.go:3'].map((text, i) => ({ line: i + 1, text: `_bk;t=166981295340${i}     | ${text}` }));
    expect(stripTaskPrefixes(lines).map((l) => l.text)).toEqual(['panic: x', 'goroutine 1', 'main.go:3']);
    // Fewer than three is the text's own.
    expect(stripTaskPrefixes([{ line: 1, text: '_bk;t=1 | x' }]).map((l) => l.text)).toEqual(['_bk;t=1 | x']);
    const raw = ['panic: runtime error: index out of range [2] with length 1 [recovered]', 'goroutine 232 [running]:'].map((text, i) => `\x1b_bk;t=166981295340${i}\x07${text}`);
    expect(await tailTypes(raw)).toEqual(['Runtime Error', 'Test Failure']);
  });

  it('a flaky Playwright test yields to what else failed in the step', async () => {
    const flaky = ['  1) [chromium] › tests/a.spec.ts:3:1 › opens ─────', '    Error: Timed out 5000ms waiting for expect(locator).toBeVisible()', '  1 flaky', '  10 passed (20.1s)', 'npm ERR! code E404'];
    expect(await tailTypes(flaky)).toEqual(['Package Installation Error']);
  });
});
