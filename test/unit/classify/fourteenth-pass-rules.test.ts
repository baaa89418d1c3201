import { describe, expect, it } from 'vitest';
import { dedentLines } from '../../../src/classify/quoted-output.js';
import { toolLine } from '../../../src/classify/tool-line.js';
import { logTypes as types, tailTypes } from './tail-types.js';

/** Rules from the fourteenth pass's tuning-half misses (issue 16), and quoted output indented as a whole. */

describe('fourteenth pass', () => {
  it.each([
    ["npm 7+ naming the dependency whose install script failed", ['npm ERR! code 1', 'npm ERR! path /home/runner/work/app/app/node_modules/node-sass', 'npm ERR! command failed', 'npm ERR! command sh -c node scripts/build.js'], ['Package Installation Error']],
    ['Android SDK licences not accepted', ['* What went wrong:', "A problem occurred configuring project ':app'.", '> Failed to install the following Android SDK packages as some licences have not been accepted.'], ['Package Installation Error']],
    ['a Go module that does not match go.sum', ['verifying gopkg.in/h2non/gentleman.v2@v2.0.4: checksum mismatch', '\tdownloaded: h1:9R3K6CFYd/RdXDLi0pGXwaPnRx/pn5EZlrN3VkNygWc=', '', 'SECURITY ERROR'], ['Dependency Issues']],
    ["Surefire's summary of tests that threw", ['Error:  Failures: ', 'Error:    UriTest.testUriBadSecurity:85 » NullPointer', 'Error:    UriTest.testUriTrimmedUrl:54 » NullPointer'], ['Runtime Error', 'Test Failure']],
    ["Surefire's summary of a failed assertion", ['[ERROR] Failures: ', '[ERROR]   CalcTest.adds:12 expected:<4> but was:<5>'], ['Assertion Error', 'Test Failure']],
    ["RSpec's Failure/Error under a failed example", ['Failures:', '', '  1) Fontist::Font.status returns system fonts', '     Failure/Error: expect(command.size).to be 1'], ['Assertion Error', 'Test Failure']],
    ["javac's errors under Maven's COMPILATION ERROR heading (no command)", ['[ERROR] COMPILATION ERROR : ', '[ERROR] \\Jenkins\\workspace\\src\\main\\java\\App.java:[107,100] error: cannot find symbol', '[ERROR] BUILD FAILURE'], ['Type Checking']],
    ["PHPStan's table and closing line", [' ------ ---------------------------------------------- ', '  Line   lib/App.php                                    ', ' ------ ---------------------------------------------- ', '  47     Method App::notify() should return null but return statement is missing.', '', ' [ERROR] Found 3 errors'], ['Type Checking']],
    ['a conftest.py that does not parse', ["E   _pytest.config.ConftestImportFailure: (local('/w/tests/conftest.py'), (<class 'SyntaxError'>, SyntaxError('unexpected EOF while parsing', ('/w/tests/utils/parsetab.py', 20, 1040, 'x'))))"], ['Syntax Error']],
    ["lychee's Markdown summary with errors", ['| Status        | Count |', '|---------------|-------|', '| 🚫 Errors     | 4     |'], ['Doc/Docstring']],
    ["jest's explanation of a file it could not parse", ['● Test suite failed to run', '', '    Jest encountered an unexpected token', '', '    Jest failed to parse a file.'], ['Syntax Error']],
    ['a Gradle Kotlin script that does not parse', ["e: file:///w/app/build.gradle.kts:320:2: Expecting '}'", '', '* What went wrong:', 'Script compilation errors:', '', '  Line 320: }', "             ^ Expecting '}'"], ['Syntax Error']],
    ['an Azure Pipelines job over its time limit', ['##[error]The job running on agent Azure Pipelines 190 ran longer than the maximum time of 60 minutes. For more information, see https://go.microsoft.com/fwlink/?linkid=2077134'], ['Environment Error']],
    ['Tycho that cannot resolve project dependencies', ['Error:  Cannot resolve project dependencies:', "Error:    Missing requirement: gama.p2site requires 'org.eclipse.equinox.p2.iu; gama.feature' but it could not be found"], ['Dependency Issues']],
    ["libsolv's conflicting requests", ['error: Installing packages: Could not depsolve transaction; 3 problems detected:', ' Problem 1: conflicting requests'], ['Dependency Issues', 'Package Installation Error']],
    ["a Maven repository's 502 behind an unresolved artifact", ["> Could not resolve all files for configuration ':app:debugRuntimeClasspath'.", '   > Could not resolve org.wordpress:aztec:v1.6.1.', "         > Could not GET 'https://dl.bintray.com/a/aztec-v1.6.1.pom'. Received status code 502 from server: Bad Gateway"], ['Dependency Issues', 'Environment Error']],
    ["libtest's stdout heading of a test that panicked", ['---- test::test_pr_opened stdout ----', "thread 'test::test_pr_opened' panicked at src/test/mod.rs:331:10:", 'called `Result::unwrap()` on an `Err` value: Elapsed(())'], ['Runtime Error', 'Test Failure']],
    ["pytest's marked assertion line in a report cut before its E lines", ['================================== FAILURES ===================================', '_____________ SettingsDefaultTests.test_setting_default_is_false ______________', '', '    def test_setting_default_is_false(self) -> None:', '>       self.assertIn(\'setdefault("auto_quarantine_corrupted", False)\', content)'], ['Assertion Error', 'Test Failure']],
    ['Gradle asked for a task the project does not define', ['* What went wrong:', "Could not determine the dependencies of task ':app:preBuild'.", "> Task with path ':app:scripts:downloadModels' not found in project ':app'."], ['Configuration Error']],
    ["Dart's parse error and what it leaves behind", ["lib/main.dart:176:13: Error: Expected '(' after this.", "lib/main.dart:176:13: Error: Couldn't find constructor 'pattern'.", "lib/main.dart:176:21: Error: Can't assign to this."], ['Syntax Error']],
    ["Sphinx's warnings when nothing else explains the failed step", ["generated/jwst/gwa_to_slit-0.7.0 /home/docs/checkouts/latest/docs/jwst/transforms/index.rst: WARNING: toctree contains ref to nonexisting file 'generated/jwst/gwa_to_slit-0.7.0'"], ['Doc/Docstring']],
    ['SwiftPM run without a Package.swift', ['/usr/bin/xcrun --sdk macosx --find xctest', 'error: root manifest not found'], ['Configuration Error']],
    ['a binary built against another macOS', ['Building for debugging...', 'dyld[7460]: Symbol not found: (_$s10Foundation11JSONDecoderC6decode)', "  Referenced from: '/Users/runner/work/h/.build/plugins/tools/debug/GenerateTests'"], ['Environment Error']],
    ["SwiftPM's build system putting error: first", ["error: /w/AutomergeUniffi/automerge.swift:14:23 cannot find type 'RustBuffer' in scope"], ['Type Checking']],
    ["cabal's solver", ['cabal: Could not resolve dependencies:', '[__0] trying: cardano-binary-1.5.0.1 (user goal)', '[__2] unknown package: cardano-prelude-test (dependency of cardano-binary *test)'], ['Dependency Issues']],
    ["vstest's test host crashing", ['The active test run was aborted. Reason: Test host process crashed', 'Test Run Aborted.'], ['Runtime Error', 'Test Failure']],
    ["setup-android's sdkmanager failing", ["Warning: Failed to find package 'tools'", "Error: The process '/usr/local/lib/android/sdk/cmdline-tools/7.0/bin/sdkmanager' failed with exit code 1"], ['Package Installation Error']],
    ["the runner rate-limited downloading an action", ["Warning: Failed to download action 'https://api.github.com/repos/o/a/tarball/e3dd'. Error: Response status code does not indicate success: 429 (Too Many Requests).", 'Error: Response status code does not indicate success: 429 (Too Many Requests).'], ['Environment Error']],
    ["the runner's action lookup answered 503", ['Getting action download info', 'Failed to resolve action download info. Error: Service Unavailable', 'Retrying in 22.535 seconds', 'Error: Failed to resolve action download info.'], ['Environment Error']],
    ['an action version that does not exist', ['Failed to resolve action download info. Error: Unable to resolve action `o/a@v1.0.1`, unable to find version `v1.0.1`', 'Error: Failed to resolve action download info.'], ['Configuration Error']],
    ['a workflow token that may not write the organisation package', ['ERROR: failed to build: failed to solve: failed to push ghcr.io/o/r/base:0.0.12: denied: installation not allowed to Write organization package'], ['Configuration Error']],
    ['trusted publishing without id-token: write', ['OpenID Connect token retrieval failed: GitHub: missing or insufficient OIDC token permissions, the ACTIONS_ID_TOKEN_REQUEST_TOKEN environment variable was unset'], ['Configuration Error']],
    ['a commit pushed from a detached HEAD', ['[detached HEAD 16b7f81] Update preview', 'fatal: You are not currently on a branch.'], ['Configuration Error']],
    ['Pages not enabled for deploy-pages', ['Error: Creating Pages deployment failed', 'Error: Error: Failed to create deployment (status: 404) with build version 32ec376. Ensure GitHub Pages has been enabled'], ['Configuration Error']],
    ["Homebrew's link step", ['==> Pouring python@3.9-3.9.1_1.catalina.bottle.tar.gz', 'Error: The `brew link` step did not complete successfully', 'The formula built, but is not symlinked into /usr/local'], ['Package Installation Error']],
    ["Poetry's installer", ['Installing Poetry (2.3.1): An error occurred. Removing partial environment.', 'Poetry installation failed.'], ['Package Installation Error']],
    ["Go's diagnostics as the web view renders problem-matcher errors", ['# go.uber.org/multierr', 'Error: ../../../go/pkg/mod/go.uber.org/multierr@v1.10.0/error.go:224:13: undefined: atomic.Bool', 'Error: ../../../go/pkg/mod/go.uber.org/zap@v1.27.1/internal/pool/pool.go:34:13: syntax error: unexpected any, expecting ]'], ['Syntax Error', 'Type Checking']],
    ['what a Kotlin script parse error leaves behind', ['e: file:///w/lib/build.gradle.kts:111:13: Expecting an element', "e: file:///w/lib/build.gradle.kts:111:1: Function invocation 'apply()' expected"], ['Syntax Error']],
    ["Surefire's other summary shapes", ['[ERROR]   FooTest.bar:54->helper:72 » NullPointer', '[ERROR]   FooTest>BaseTest.setUp:20 » IllegalState'], ['Runtime Error', 'Test Failure']],
    ["Surefire's comparisons behind a message, and Mockito's verifications", ['[ERROR]   CalcTest.adds:12 Bending maths expected:<[123]> but was:<[312]>', '[ERROR]   CalcTest.sum:20 sum ==> expected: <4> but was: <5>', '[ERROR]   MailTest.sends:33 » WantedButNotInvoked'], ['Assertion Error', 'Test Failure']],
    ["pytest 6+'s conftest syntax error", ['E   _pytest.config.ConftestImportFailure: SyntaxError: invalid syntax (from /w/tests/conftest.py)'], ['Syntax Error']],
    ["dnf's providers that cannot be installed", ['Error: ', ' Problem: package grub2-pc-1:2.12-38.fc43.x86_64 requires grub2-tools-minimal = 1:2.12-38.fc43, but none of the providers can be installed', '  - cannot install the best candidate for the job'], ['Dependency Issues', 'Package Installation Error']],
    ["Kotlin K2's wording of a script parse error", ["e: file:///w/build.gradle.kts:12:5: Syntax error: Expecting ')'."], ['Syntax Error']],
    ["mypy's diagnostics as the web view renders problem-matcher errors", ['Error: src/app.py:12: error: Incompatible return value type (got "int", expected "str")  [return-value]', 'Found 1 error in 1 file (checked 3 source files)'], ['Type Checking']],
    ["clippy-check rethrowing a refused token outside a fork", ['Clippy results: 0 ICE, 0 errors, 3 warnings, 0 notes, 0 help', '##[error]Resource not accessible by integration'], ['Configuration Error']],
    ["Gradle's top-level task that does not exist", ["Task 'integrationTest' not found in root project 'app'."], ['Configuration Error']],
  ] as const)('%s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it.each([
    ['a failed npm script in the project itself', ['npm ERR! code 1', 'npm ERR! path /home/runner/work/app/app', 'npm ERR! command failed', 'npm ERR! command sh -c eslint .'], []],
    ['a Gradle Kotlin script that parses but does not compile', ['e: file:///w/app/build.gradle.kts:12:5: Unresolved reference: libs', '', '* What went wrong:', 'Script compilation error:'], ['Configuration Error']],
    ['PHPStan-style closing line from another tool', [' [ERROR] Found 3 errors'], []],
    ['lychee with no errors', ['| 🚫 Errors     | 0     |'], []],
    ["pytest's marked assert whose expression raised", ['________________________________ test_ratio ________________________________', '', '    def test_ratio():', '>       assert ratio(1, 0) == 0', '', 'tests/test_calc.py:5: ', '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _', '', '    def ratio(a, b):', '>       return a / b', 'E       ZeroDivisionError: division by zero', '', 'src/calc.py:2: ZeroDivisionError', '=========================== short test summary info ============================', 'FAILED tests/test_calc.py::test_ratio - ZeroDivisionError: division by zero'], ['Runtime Error', 'Test Failure']],
    ["Sphinx's warnings without a line number beside the failure a rule explains", ['/w/docs/index.rst: WARNING: toctree contains ref to nonexisting file', 'FAILED tests/test_calc.py::test_add - assert 1 == 2', '========================= 1 failed, 3 passed in 0.12s ========================='], ['Assertion Error', 'Test Failure']],
    ["clippy-check on a fork, which cannot write its annotations", ['Clippy results: 0 ICE, 0 errors, 3 warnings, 0 notes, 0 help', '##[error]Unable to create clippy annotations! Reason: HttpError: Resource not accessible by integration', 'It seems that this Action is executed from the forked repository.'], []],
    ["CMake's status line for an optional package beside the failure a rule reads", ['-- Could NOT find PathFerris (missing: PathFerris_LIBRARIES) ', '-- Configuring done', "src/solver.c:3:5: error: unknown type name 'ferris_t'"], ['Type Checking']],
    ["cargo test --show-output's passed tests", ['successes:', '', '---- tests::a stdout ----', 'hello', '', 'successes:', '    tests::a'], []],
    ["CMake's optional packages beside a link error no rule reads", ['-- Could NOT find Doxygen (missing: DOXYGEN_EXECUTABLE)', '-- Configuring done', '-- Generating done', "main.cpp:(.text+0x5): undefined reference to `foo()'", 'collect2: error: ld returned 1 exit status'], []],
    ["clippy-check's fork notice as the web view shows it", ['Clippy results: 0 ICE, 2 errors, 0 warnings, 0 notes, 0 help', 'Error: Unable to create clippy annotations! Reason: HttpError: Resource not accessible by integration'], []],
    ["Go test output that quotes ENOSPC", ['--- FAIL: TestWrite (0.00s)', '    write_test.go:12: got err "no space left on device", want nil'], ['Test Failure']],
  ] as const)('not: %s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it('reads output quoted with an indent on every line', async () => {
    const quoted = ['  ______________ ERROR collecting tests/test_api.py _______________', "  ImportError while importing test module '/w/tests/test_api.py'.", '  Traceback:', '  tests/test_api.py:13: in <module>', '      import paramiko', "  E   ModuleNotFoundError: No module named 'paramiko'"];
    expect(await types(quoted.join('\n'))).toEqual(['Dependency Issues']);
    // A benchmark tail cut inside indented output ends with the runner's line at the start: nothing is removed, so
    // rules that read a summary's own indent (Playwright's `  1 failed`) still match.
    expect(await tailTypes(['      at /w/tests/e2e/quiz.spec.ts:66:24', '', '  1 failed', '    [chromium] › tests/e2e/quiz.spec.ts:60:3 › result page', '  5 passed (42.0s)'])).toEqual(['Test Failure']);
  });

  it('reads a pasted mocha summary with its indent removed', async () => {
    const mocha = ['  Calc', '    1) adds', '', '  0 passing (5ms)', '  1 failing', '', '  1) Calc', '       adds:', '     Error: boom'];
    expect(await types(mocha.join('\n'))).toContain('Test Failure');
  });

  it('removes the indent every non-blank line shares, and only that', () => {
    expect(dedentLines([{ line: 1, text: '    one line' }]).map((l) => l.text)).toEqual(['one line']);
    const blank = [{ line: 1, text: '' }, { line: 2, text: '   ' }];
    expect(dedentLines(blank)).toBe(blank);
    const lines = [
      { line: 1, text: '    Traceback:' },
      { line: 2, text: '' },
      { line: 3, text: '      import x' },
      { line: 4, text: '\t' },
      { line: 5, text: '    E   ModuleNotFoundError' },
    ];
    expect(dedentLines(lines).map((l) => l.text)).toEqual(['Traceback:', '', '  import x', '\t', 'E   ModuleNotFoundError']);
    const mixed = [
      { line: 1, text: '  a' },
      { line: 2, text: 'b' },
    ];
    expect(dedentLines(mixed)).toBe(mixed);
    // Tabs and spaces are not the same indent.
    expect(dedentLines([{ line: 1, text: '\ta' }, { line: 2, text: '  b' }]).map((l) => l.text)).toEqual(['\ta', '  b']);
  });

  it("takes the web view's Error: off a compiler's diagnostic, and only there", () => {
    expect(toolLine('Error: src/app.py:12: error: Incompatible return value type')).toBe('src/app.py:12: error: Incompatible return value type');
    expect(toolLine("Error: D:\\a\\x\\src\\foo.c:12:5: error: unknown type name 'foo_t'")).toBe("D:\\a\\x\\src\\foo.c:12:5: error: unknown type name 'foo_t'");
    expect(toolLine('Error: 12:34:56 upload failed')).toBe('Error: 12:34:56 upload failed');
    expect(toolLine("Error: Cannot find module 'x'")).toBe("Error: Cannot find module 'x'");
    expect(toolLine('##[error]Process completed with exit code 1.')).toBe('Process completed with exit code 1.');
  });

  it('reads a Windows diagnostic behind the web view\'s Error:', async () => {
    expect(await tailTypes(["Error: D:\\a\\x\\src\\foo.c:12:5: error: unknown type name 'foo_t'"])).toEqual(['Type Checking']);
  });
});
