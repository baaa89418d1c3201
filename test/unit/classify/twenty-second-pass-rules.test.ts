import { describe, it } from 'vitest';
import { readsAs } from './tail-types.js';

/** Rules written from the twenty-second collection pass's tuning logs (issue 16); the lines are shaped after them. */
describe('twenty-second pass: rules from real logs', () => {
  it.each([
    ['mypy without its command or summary', ['tests/extension/array.py:83: error: No overload variant of "__setitem__" of "ndarray" matches argument types "int", "Decimal"  [call-overload]'], ['Type Checking']],
    ["mypy's lines as the web view prefixes them", ['Error: pkg/lattice.py:25: error: Unused "type: ignore" comment  [unused-ignore]'], ['Type Checking']],
    ["GHC's type mismatch", ['src/ArrCode.hs:97:14: error:', "    • Couldn't match expected type ‘Exp Code’", '                  with actual type ‘Code’'], ['Type Checking']],
    ["Psalm's GitHub format", ['Error: lib/Service/Files.php:315:48: InvalidArgument: Argument 1 of Deck::get expects string, but int provided (see https://psalm.dev/004)', '2 errors found'], ['Type Checking']],
    ["Julia's resolver", ['ERROR: LoadError: Unsatisfiable requirements detected for package GMP_jll [781609d7]:', ' GMP_jll [781609d7] log:'], ['Dependency Issues']],
    ["Yarn Berry's frozen lockfile", ['➤ YN0028: The lockfile would have been created by this install, which is explicitly forbidden.', '➤ YN0000: Failed with errors in 0s 12ms'], ['Dependency Issues']],
    ["Rollup's native package lost to npm's optional-dependency bug", ['Error: Cannot find module @rollup/rollup-linux-x64-gnu. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). Please try `npm i` again.'], ['Dependency Issues']],
    ['a Go module path that does not load', ['build github.com/acme/app/cmd/dfget: cannot load github.com/beorn7/perks/quantile: Get https://proxy.example/github.com/beorn7/perks/@v/v1.0.0.zip: stopped after 10 redirects'], ['Dependency Issues']],
    ['a pytest summary naming a missing module', ["FAILED tests/test_manip.py::test_rotation - ModuleNotFoundError: No module named 'pydivsufsort'", '========================= 1 failed, 29 passed in 0.19s ========================='], ['Dependency Issues', 'Test Failure']],
    ['an action ref the runner cannot download', ["##[warning]Failed to download action 'https://api.github.com/repos/acme/lint/tarball/vmaster'. Error Response status code does not indicate success: 404 (Not Found)."], ['Configuration Error']],
    ["an action's broken action.yml", ["Error: acme/build-action/v1/action.yml (Line: 30, Col: 1): 'branding' is already defined"], ['Configuration Error']],
    ["a required input behind github-script's prefix", ['Unhandled error: Error: Input required and not supplied: github-token'], ['Configuration Error']],
    ["Maven's unknown phase", ['[ERROR] Unknown lifecycle phase ".skipTests=true". You must specify a valid lifecycle phase or a goal in the format <plugin-prefix>:<goal>'], ['Configuration Error']],
    ["npm 6's missing script", ['npm ERR! missing script: test-all', 'npm ERR! '], ['Configuration Error']],
    ['a worker past its heap limit', ['Error [ERR_WORKER_OUT_OF_MEMORY]: Worker terminated due to reaching memory limit: JS heap out of memory'], ['Environment Error']],
    ['no MSVC on the runner', ['error: Microsoft Visual C++ 14.0 or greater is required. Get it with "Microsoft C++ Build Tools": https://visualstudio.microsoft.com/visual-cpp-build-tools/'], ['Environment Error']],
    ["CMake's find_program finding nothing", ['CMake Error at scripts/cmake/vcpkg_fixup_pkgconfig.cmake:279 (find_program):', '  Could not find PKGCONFIG using the following names: pkg-config'], ['Environment Error']],
    ["golangci-lint's formatters", ['main.go:5: File is not `goimports`-ed (goimports)'], ['Code Formatting']],
    ["Psalm's parse error", ['Error: src/a.php:12:5: ParseError: Syntax error, unexpected T_STRING (see https://psalm.dev/173)'], ['Syntax Error']],
    ["super-linter's formatter verdict", ['[ERROR]   Found errors when linting TERRAFORM_FMT. Exit code: 1.'], ['Code Formatting']],
    ["SwiftLint's summary with serious violations", ['Done linting! Found 3 violations, 2 serious in 40 files.'], ['Code Linting']],
    ['pip refusing a system Python in its boxed form', ['× This environment is externally managed', '╰─> The system-wide python installation should be maintained using the system package manager (apk) only.'], ['Environment Error', 'Package Installation Error']],
    ["vcpkg's older build failure", ['Error: Building package zlib:x64-windows failed with: BUILD_FAILED'], ['Package Installation Error']],
    ["setuptools too old for Python 3.12's pkgutil", ['Traceback (most recent call last):', '  File "/opt/hostedtoolcache/Python/3.12.1/x64/lib/python3.12/site-packages/pkg_resources/__init__.py", line 2191, in <module>', '    register_finder(pkgutil.ImpImporter, find_on_path)', '                    ^^^^^^^^^^^^^^^^^^^', "AttributeError: module 'pkgutil' has no attribute 'ImpImporter'. Did you mean: 'zipimporter'?"], ['Package Installation Error']],
    ['golangci-lint without its command', ['    server/main.go:13: Error return value of `http.ListenAndServe` is not checked (errcheck)'], ['Code Linting']],
    ["go vet's composites check", ['services/medco/service_test.go:36: github.com/acme/app/lib.SurveyDescription composite literal uses unkeyed fields', 'exit status 1'], ['Code Linting']],
    ['SwiftLint under strict', ['##[error]Type Body Length Violation: Type body should span 400 lines or less excluding comments and whitespace: currently spans 434 lines (type_body_length)'], ['Code Linting']],
    ["super-linter's verdict", ['2025-10-04 17:26:57 [ERROR]   Found errors when linting MARKDOWN. Exit code: 1.'], ['Code Linting']],
    ["scalafmt's check copied through HTML", ['[warn] /home/travis/build/acme/core/src/test/scala/MockedFactory.scala isn&#39;t formatted properly!'], ['Code Formatting']],
    ["nbdev's clean check", ['!!! Detected unstripped out notebooks', '!!!Remember to run nbdev_install_hooks'], ['Code Formatting']],
    ['Go parse errors of an old compiler', ['github.com/minio/minio-go/api.go:447: non-declaration statement outside function body', 'github.com/minio/minio-go/api.go:468: too many errors'], ['Syntax Error']],
    ['an anyhow error report', ['error: unsupported rustdoc format v46 for file: /w/target/doc/ref_slice.json', '', 'Stack backtrace:', '   0: anyhow::error::<impl core::convert::From<E> for anyhow::Error>::from'], ['Runtime Error']],
    ['a .NET exception escaping', ['System.NullReferenceException: Object reference not set to an instance of an object.', '   at GitVersion.GitObject..ctor(GitObject innerGitObject) in D:\\a\\GitVersion\\src\\GitObject.cs:line 12'], ['Runtime Error']],
    ["Vitest's caught errors on a green run", ['Vitest caught 1 unhandled error during the test run.', ' Test Files  15 passed (15)', '      Tests  164 passed (164)', '     Errors  1 error'], ['Runtime Error']],
    ['a crash right after pytest progress letters', ['tests/moe/test_fused_moe.py ....................FFFatal Python error: Aborted'], ['Runtime Error']],
    ['Docusaurus link resolution', ['Error: Docs markdown link couldn\'t be resolved: (./setup.mdx) in "/w/docs/docs/contribute/intro.mdx" for version current'], ['Doc/Docstring']],
    ["Sphinx's extension errors", ['Sphinx parallel build error:', "sphinx.errors.ExtensionError: Handler <function process_docstring at 0x7f03371f0820> for event 'autodoc-process-docstring' threw an exception (exception: )"], ['Doc/Docstring']],
    ['R CMD check undocumented arguments', ["   Undocumented arguments in documentation object 'show_ratemat'", "     'blocksize' 'block_col'"], ['Doc/Docstring']],
    ["pkgdown's sitrep", ['✖ Reference metadata not ok.', '  In _pkgdown.yml, 1 topic missing from index: "stable_convolve".'], ['Doc/Docstring']],
    ["ScalaTest's summary", ['[04-09 22:41:59.531] [info] *** 1 TEST FAILED ***'], ['Test Failure']],
    ["sbt's failed tests behind a timestamp", ['[04-09 22:41:59.536] [error] Failed tests:', '[04-09 22:41:59.538] [error] \takka.stream.scaladsl.StreamRefsSpec'], ['Test Failure']],
    ["sbt scripted's exception", ['[error] java.lang.RuntimeException: Failed tests:', '[error] \ttests / t543'], ['Test Failure']],
    ["Catch's summary", ['test cases:  4 |  3 passed | 1 failed', 'assertions: 19 | 18 passed | 1 failed'], ['Test Failure']],
    ["testthat's summary and failure", ["Failure ('test-expect-header.R:120:5'): expect_header works with actual network too", '[ FAIL 1 | WARN 0 | SKIP 5 | PASS 312 ]'], ['Assertion Error', 'Test Failure']],
    ["testthat's expect_error mismatch", ['Expected match: "y must be an atomic vector"', 'Actual message: "y must have 1 element"'], ['Assertion Error', 'Test Failure']],
    ["shunit2's assert", ['ASSERT:line 45: No parameter expected:<Mon 07 Jun 2021 12:25:45 AM UTC> but was:<Mon 07 Jun 2021 12:25:46 AM UTC>'], ['Assertion Error', 'Test Failure']],
    ["nbval's cell mismatch", ['Notebook cell execution failed', ' assert reference_output == test_output failed:'], ['Assertion Error', 'Test Failure']],
    ["jest's failed snapshots", ['     › 46 snapshots failed from 6 test suites. Inspect your code changes or run `yarn run test:ci -u` to update them.'], ['Assertion Error', 'Test Failure']],
  ] as const)('%s', readsAs);

  it.each([
    ['a diagnostic of a file that is not Python', ['notes.txt:3: error: bad value  [value]'], []],
    ["prose that couldn't match", ["I couldn't match the pattern in the config"], []],
    ["Yarn Berry's ordinary lines", ['➤ YN0000: └ Completed in 0s 570ms'], []],
    ['a local name that does not load', ['cannot load config: file missing'], []],
    ['a .NET exception logged without its stack', ['System.TimeoutException: retry 1 of 3', 'retrying'], []],
    ['a .NET exception that is a full disk', ['System.IO.IOException: No space left on device : \'/home/runner/actions-runner/cached/_diag/Worker.log\'', '   at System.IO.RandomAccess.WriteAtOffset(SafeFileHandle handle)'], ['Environment Error']],
    ["SwiftLint's warnings fail nothing without --strict", ['/w/Sources/View.swift:12:5: warning: Line Length Violation: Line should be 120 characters or less (line_length)'], []],
    ['a cache image that is not there beside a failed test', ['Error response from daemon: manifest for ghcr.io/acme/app:cache not found: manifest unknown', 'FAILED tests/test_app.py::test_add - assert 1 == 2'], ['Assertion Error', 'Test Failure']],
    ["Psalm's warnings are no errors", ['##[warning]src/a.php:12:5: PossiblyUnusedMethod: Cannot find any calls to method A::b (see https://psalm.dev/087)'], []],
    ["find_library's missing library is no missing program", ['CMake Error at src/CMakeLists.txt:25 (find_library):', '  Could not find SHMEM_HOST_LIB using the following names: aclshmem'], []],
    ['a testthat summary with nothing failed', ['[ FAIL 0 | WARN 0 | SKIP 5 | PASS 312 ]'], []],
    ["Catch's tests that failed as expected", ['test cases: 3 | 2 passed | 1 failed as expected'], []],
    ['snapshots written, not failed', ['     › 2 snapshots written from 1 test suite.'], []],
    ['super-linter linting cleanly', ['2025-10-04 17:26:57 [INFO]   Successfully linted MARKDOWN.'], []],
    ["an ordinary pytest summary exception stays a runtime error", ["FAILED tests/test_app.py::test_metrics - KeyError: 'token'"], ['Runtime Error', 'Test Failure']],
  ] as const)('only the right types: %s', readsAs);
});

/** The pass's third round (the same procedure, its own tuning misses). */
describe('twenty-second pass, third round: rules from real logs', () => {
  it.each([
    ["mypy's lines without error codes", ['pynitrokey/updates.py:84: error: Name "re.Pattern" is not defined'], ['Type Checking']],
    ["PHP's parse error with the file on the next line", ["PHP Parse error:  syntax error, unexpected '[' in ", '/home/travis/build/x/y/vendor/guzzlehttp/guzzle/src/functions.php on line 20'], ['Syntax Error']],
    ["Helm's missing chart repositories", ["Error: no repository definition for , , , . Please add them via 'helm repo add'"], ['Configuration Error', 'Dependency Issues']],
    ['SwiftPM unable to clone a package', ['xcodebuild: error: Could not resolve package dependencies:', '  Failed to clone repository https://github.com/acme/Toast#spm:'], ['Dependency Issues']],
    ['Codecov wanting a token', ['error - 2026-03-29 06:27:23,460 -- Upload queued for processing failed: {"message":"Token required because branch is protected"}', '==> Failed to run upload-coverage'], ['Configuration Error']],
    ['a Docker tag that does not exist', ['manifest for alpine:0.0.0 not found: manifest unknown: manifest unknown'], ['Configuration Error']],
    ["Terraform's registry out of reach", ['Error: Failed to query available provider packages', 'hashicorp/random: could not connect to registry.terraform.io: Failed to'], ['Environment Error']],
    ["a JVM client's connect time-out", ['            > Connect to nemp.planet.ee:80 [nemp.planet.ee/217.146.69.16] failed: Connect timed out'], ['Environment Error']],
    ["minikube's machine that never started", ["X Exiting due to GUEST_PROVISION: Failed to start host: creating host: create: Error creating machine: Error in driver during machine creation: IP not available after waiting"], ['Environment Error']],
    ["RuboCop's offenses without its command", ['spec/rspec/rails/matchers/have_http_status_spec.rb:105:13: C: Space missing to the left of {.', '      expect{ have_numeric_code.matches? response }.'], ['Code Linting']],
    ["ESLint's stylish line without its header", ["2:8  error  '_' is defined but never used  no-unused-vars"], ['Code Linting']],
    ['SwiftLint behind the web view prefix', ['Error: Line Length Violation: Line should be 200 characters or less: currently 444 characters (line_length)'], ['Code Linting']],
    ["sbt-scalafmt's check", ['[error] /w/lang/Parser.scala has changes after scalafmt', '[error] com.lucidchart.sbt.scalafmt.ScalafmtCheckFailure: 2 Scala sources not formatted in lang:compile'], ['Code Formatting']],
    ['cargo doc failing', ['Build failed, waiting for other jobs to finish...', 'Could not document `khronos_api`.'], ['Doc/Docstring']],
    ["Gomega's failed expectation under Ginkgo", ['  [FAILED] Expected', '      <string>: "...o-qe/releas..."', '  to equal'], ['Assertion Error', 'Test Failure']],
    ["testify's require.NoError", ['--- FAIL: TestService (73.01s)', '\tpachyderm_test.go:5255: No error is expected but got Get http://0.0.0.0:31800/file1: dial tcp 0.0.0.0:31800: getsockopt: connection refused'], ['Assertion Error', 'Test Failure']],
    ["gocheck's failed assert", ['    c.Assert(err, IsNil)', '... value *net.OpError = &net.OpError{Op:"dial", Net:"tcp"} ("dial tcp [::1]:49628: connect: connection refused")', 'OOPS: 28 passed, 1 FAILED'], ['Assertion Error', 'Test Failure']],
    ["JUnit 3's comparison failure", ['test1(net.java.amateras.xlsbeans.XLSBeansTest)  Time elapsed: 0.086 sec  <<< FAILURE!', 'junit.framework.ComparisonFailure: expected:<06/04/10> but was:<4/10/06>'], ['Assertion Error', 'Test Failure']],
    ["jest's snapshot mismatch behind the web view prefix", ['Error:  FAIL src/app/components/Header/User.test.tsx', 'Error:    expect(received).toMatchSnapshot()'], ['Assertion Error', 'Test Failure']],
  ] as const)('%s', readsAs);

  it.each([
    ["pyright's format is not mypy's", ['/w/app/a.py:12:5 - error: "foo" is not defined (reportUndefinedVariable)'], []],
    ['a PHP parse error with its file on the line is the compiler rule', ["PHP Parse error:  syntax error, unexpected '}' in ./src/a.php on line 12"], ['Syntax Error']],
    ["ESLint's parsing error keeps its type", ['  1:9  error  Parsing error: Unexpected token'], ['Syntax Error']],
    ['a Ginkgo spec that passed', ['  [PASSED] in [It] at: /tmp/tests/build/build.go:1668'], []],
    ['a connect time-out to a local server is no environment verdict (the exception is the last words)', ['org.apache.http.conn.ConnectTimeoutException: Connect to localhost:8080 [localhost/127.0.0.1] failed: Connect timed out'], ['Runtime Error']],
    ["SwiftPM's cache warning (it clones directly next)", ['warning: skipping cache due to an error: Failed to clone repository https://github.com/apple/swift-log.git:'], []],
  ] as const)('only the right types: %s', readsAs);
});

/** The pass's fourth round. */
describe('twenty-second pass, fourth round: rules from real logs', () => {
  it.each([
    ['cpplint behind ctest', ['3: /opt/carma/src/motion/include/config.hpp:85:  Lines should be <= 100 characters long  [whitespace/line_length] [2]'], ['Code Linting']],
    ["commitlint's verdict", ['⧗   input: Update README.md', '✖   message may not be empty [subject-empty]', '✖   type may not be empty [type-empty]', '✖   found 2 problems, 0 warnings'], ['Code Linting']],
  ] as const)('%s', readsAs);

  it.each([
    ['commitlint with nothing to report', ['⧗   input: chore: update readme', '✔   found 0 problems, 0 warnings'], []],
  ] as const)('only the right types: %s', readsAs);
});
