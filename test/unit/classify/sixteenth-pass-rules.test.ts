import { describe, expect, it } from 'vitest';
import { toolLine } from '../../../src/classify/tool-line.js';
import { tailTypes } from './tail-types.js';

/** Rules from the sixteenth and seventeenth passes' tuning-half misses (issue 16): installs, docs, crashed tests, other CI services. */

describe('sixteenth and seventeenth passes', () => {
  it.each([
    ["pnpm's frozen lockfile that needs updates", [' ERR_PNPM_FROZEN_LOCKFILE_WITH_OUTDATED_LOCKFILE  Cannot perform a frozen installation because the lockfile needs updates'], ['Dependency Issues']],
    ["apk's missing package inside a Docker build", ['#0 1.647 ERROR: unable to select packages:', '#0 1.764   python (no such package):', '#0 1.764     required by: world[python]'], ['Package Installation Error']],
    ["rustup's component missing from a nightly", ["error: component 'clippy' for target 'x86_64-unknown-linux-gnu' is unavailable for download for channel nightly-2019-10-29"], ['Package Installation Error']],
    ["python -m build's missing build requirements", ['ERROR Missing dependencies:', '\tsetuptools_scm[toml]>=6.2'], ['Dependency Issues']],
    ['an mkdocs plugin not installed', ['ERROR   -  Config value \'plugins\': The "mkdocstrings" plugin is not installed', '', 'Aborted with a configuration error!'], ['Dependency Issues']],
    ['the bundler version a lockfile asks for', ["#16 0.125 Could not find 'bundler' (~> 2.5) - did find: [bundler-4.0.9]"], ['Dependency Issues']],
    ["poetry's installer on a Python without distutils", ["No module named 'distutils'"], ['Dependency Issues']],
    ["Documenter's docstrings missing from the manual", ['┌ Error: 3 docstrings not included in the manual:', '│     IntervalRootFinding.newton :: Tuple{Function}'], ['Doc/Docstring']],
    ["pkgdown's reference index", [' Error in check_missing_topics(rows, pkg) : ', '  All topics must be included in reference index'], ['Doc/Docstring']],
    ["htmlproofer's summary after its version", ['htmlproofer 3.9.2 | Error:  HTML-Proofer found 1 failure!'], ['Doc/Docstring']],
    ["doxygen's warnings in a docs job", ['Doxygen warnings:', "/w/src/config.cpp:26: warning: documented symbol 'void CConfig::Apply' was not declared or defined."], ['Doc/Docstring']],
    ["C#'s member errors are type errors", ["/w/src/Telemetry.cs(105,25): error CS1061: 'TelemetryClient' does not contain a definition for 'TelemetryConfiguration'"], ['Type Checking']],
    ["CircleCI's no-output time-out", ['go test -v -race ./...', 'Too long with no output (exceeded 10m0s): context deadline exceeded'], ['Environment Error']],
    ['Azure Pipelines without a hosted agent', ['##[error]No hosted parallelism has been purchased or granted. To request a free parallelism grant, please fill out the following form https://aka.ms/azpipelines-parallelism-request'], ['Environment Error']],
    ["Maven's JVM out of heap", ['Error:  Java heap space -> [Help 1]'], ['Environment Error']],
    ['a download refused by a rate limiter', ['Github rate-limiter failed the request. Either authenticate or wait a couple of minutes.', 'make: *** [Makefile:129: generate_default_deployment] Error 1'], ['Environment Error']],
    ['a cargo test binary that segfaulted', ["error: process didn't exit successfully: `/w/target/debug/deps/tests-883b --nocapture` (signal: 11, SIGSEGV: invalid memory reference)"], ['Runtime Error', 'Test Failure']],
    ['a test binary that segfaulted', ['/w/_temp/a.sh: line 1:  3452 Segmentation fault      (core dumped) ./Tests --verbosity high --success'], ['Runtime Error', 'Test Failure']],
    ["ctest's crashed test", ['351/730 Test #350: itkMCIRLE_amygdala ...............Child aborted***Exception:   1.61 sec'], ['Runtime Error', 'Test Failure']],
    ['tox reporting a signal', ['ERROR: InvocationError for command /w/.tox/py38/bin/stestr run (exited with code -11)', 'ERROR:   py38: commands failed'], ['Runtime Error']],
    ["MSBuild's test targets", ['/w/Tools/tests.targets(202,5): warning MSB3073: The command "/w/RunTests.sh /w/packages/" exited with code 139. [/w/src/Tests.csproj]', "/w/Tools/tests.targets(211,5): error : One or more tests failed while running tests from 'System.Collections.Tests' please check log for details!"], ['Runtime Error', 'Test Failure']],
    ["jest's failing-tests summary and its worker's memory", ['Summary of all failing tests', ' FAIL  test/unit-tests/topic-test.ts', '  ● Test suite failed to run', '', '    Jest worker ran out of memory and crashed'], ['Environment Error', 'Test Failure']],
    ["ctest's crashed test, as CMake 3.x+ says it", ['12/40 Test #12: parser_fuzz ......................Subprocess aborted***Exception:   0.21 sec'], ['Runtime Error', 'Test Failure']],
    ["Surefire's crashed fork", ['[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:2.12.4:test (default-test) on project qa: Execution default-test of goal org.apache.maven.plugins:maven-surefire-plugin:2.12.4:test failed: The forked VM terminated without saying properly goodbye. VM crash or System.exit called ? -> [Help 1]'], ['Runtime Error']],
    ["a Rust test's failed assertion before Rust 1.73", ["thread 'kad::tests::expire' panicked at 'assertion failed: `(left == right)`", '  left: `0`,', " right: `2`', network/src/kad.rs:190:9"], ['Assertion Error', 'Test Failure']],
    ["a Rust test's failed assertion since Rust 1.73", ["thread 'tests::adds' panicked at src/lib.rs:10:5:", 'assertion `left == right` failed', '  left: 4', ' right: 5'], ['Assertion Error', 'Test Failure']],
    ["Gradle's short test logger", ['flank.ops.TestArtifactsRepoTest > should not throw when gh token not set FAILED', '    java.lang.AssertionError at TestArtifactsRepoTest.kt:15'], ['Assertion Error', 'Test Failure']],
    ["minitest's numbered failures", ['  1) Failure:', 'Future Execution::action scheduling#test_0003_delays the action [/w/test/future_execution_test.rb:58]:', 'Expected |0.93| to be <= 0.5.'], ['Assertion Error', 'Test Failure']],
    ["Playwright's failed expect", ['Error: expect(locator).toBeVisible() failed', '', "Locator: locator('main').first()", 'Expected: visible'], ['Assertion Error', 'Test Failure']],
    ["Travis's closing line for a formatter", ['The command "cargo fmt -- --write-mode=diff" exited with 1.'], ['Code Formatting']],
    ["flake8's statistics", ['55    E999 SyntaxError: invalid syntax', "148   F821 undefined name 'xrange'", '217'], ['Code Linting', 'Syntax Error']],
    ["Nitro's prerender errors", ['Errors prerendering:', '  ├─ / (66ms)', '  │ └── Error: [500] ', 'Error:  Exiting due to prerender errors.'], ['Runtime Error']],
    ["Homebrew's removed commands", ['Error: Calling brew cask install is disabled! Use brew install [--cask] instead.'], ['Configuration Error', 'Package Installation Error']],
    ["Spotless's formatter step", ['> Task :media:spotlessKotlinGradle FAILED', "Step 'ktlint' found problem in 'sample/build.gradle.kts':", 'Error on line: 283, column: 21'], ['Code Formatting']],
    ['a rustup toolchain without rustfmt', ["error: 'cargo-fmt' is not installed for the toolchain '1.84.1-x86_64-unknown-linux-gnu'.", 'To install, run `rustup component add --toolchain 1.84.1-x86_64-unknown-linux-gnu rustfmt`'], ['Configuration Error', 'Environment Error']],
    ['a Gradle build script without repositories', ["> Could not resolve all files for configuration ':kotlinCompilerClasspath'.", '   > Cannot resolve external dependency org.jetbrains.kotlin:kotlin-compiler-embeddable:1.3.71 because no repositories are defined.'], ['Configuration Error', 'Dependency Issues']],
    ["Xcode's build graph with two producers of one file (seventeenth pass)", ["error: Multiple commands produce '/w/build/Release-iphoneos/App.app/Info.plist'", '** BUILD FAILED **'], ['Configuration Error']],
    ["the runner's exit code 137 as GitHub's web view shows it (seventeenth pass)", ['Run docker exec app pip install black==20.8b1', '    Installing build dependencies: started', 'Error: Process completed with exit code 137.'], ['Environment Error']],
    ['a Dockerfile RUN of apt-get behind an environment assignment (the rule rewritten to scan linearly)', ['ERROR: failed to solve: process "/bin/sh -c DEBIAN_FRONTEND=noninteractive apt-get install -y libpq-dev && rm -rf /var/lib/apt/lists/*" did not complete successfully: exit code: 100'], ['Package Installation Error']],
    ['a Dockerfile RUN of python -m pip after a cd', ['ERROR: failed to solve: process "/bin/sh -c cd /app; python3 -m pip install -r requirements.txt" did not complete successfully: exit code: 1'], ['Package Installation Error']],
    ["markdownlint-cli2's severity column", ['Summary: 1 issue in 1 file', 'docs/CI.md:8:17 error MD009/no-trailing-spaces Trailing spaces [Expected: 0 or 2; Actual: 1]'], ['Code Linting']],
  ] as const)('%s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it.each([
    ['a compiler, not a test binary, killed by a signal', ["error: could not compile `foo` (lib); process didn't exit successfully: `rustc --crate-name foo src/lib.rs` (signal: 11, SIGSEGV: invalid memory reference)"], ['Runtime Error']],
    ['a crashed command that runs no tests', ['/w/_temp/a.sh: line 1:  3452 Segmentation fault      (core dumped) ./build_docs --all'], ['Runtime Error']],
    ['a crashed command with "test" inside another word', ['/w/_temp/a.sh: line 1:  3452 Segmentation fault      (core dumped) ./bin/fetch-latest'], ['Runtime Error']],
    ['a crashed command given a tests/ path', ['/w/_temp/a.sh: line 1:  3452 Segmentation fault      (core dumped) ./build/app --config tests/app.yml'], ['Runtime Error']],
    ["Node's heap out of memory under a test command", ['FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', '/w/_temp/a.sh: line 1:  2345 Aborted                 (core dumped) yarn test --coverage'], ['Environment Error']],
    ["a program's main thread panicking", ["thread 'main' panicked at src/main.rs:3:5:", 'called `Option::unwrap()` on a `None` value'], ['Runtime Error']],
    ["rustc's internal compiler error", ["thread 'rustc' panicked at compiler/rustc_middle/src/ty/mod.rs:12:5:", 'assertion failed: !value.has_escaping_bound_vars()'], []],
    ["a spawned runtime thread's assertion", ["thread 'tokio-runtime-worker' panicked at src/server.rs:40:9:", 'assertion `left == right` failed', '  left: 1', ' right: 2'], []],
    ["a flaky Playwright test's expect beside a type error", ['  1 flaky', '    Error: expect(locator).toBeVisible() failed', '  5 passed (12.1s)', "src/app.ts(3,7): error TS2322: Type 'number' is not assignable to type 'string'."], ['Type Checking']],
    ["markdownlint-cli2's warnings", ['docs/CI.md:8:17 warning MD013/line-length Line length [Expected: 80; Actual: 120]'], []],
    ['Travis installing a formatter', ['The command "pip install black flake8" failed and exited with 1 during .'], []],
    ['Travis running tests after the formatter', ['The command "cargo fmt -- --check && cargo test" exited with 101.'], []],
    ['a library naming an optional import it skipped, beside a failed test', ["No module named 'cupy'", 'FAILED tests/test_gpu.py::test_fallback - assert 1 == 2', '========================= 1 failed, 3 passed in 0.12s ========================='], ['Assertion Error', 'Test Failure']],
    ["C#'s other parser errors stay syntax", ["/w/src/App.cs(9,13): error CS1073: Unexpected token 'ref'", '/w/src/App.cs(20,1): error CS1513: } expected'], ['Syntax Error']],
    ["Sphinx's autodoc naming the module it could not import", ['Warning, treated as error:', "autodoc: failed to import module 'adafruit_pio_uart'; the following exception was raised:", "No module named 'rp2pio'"], ['Doc/Docstring']],
    ['a doxygen warning beside a compile error', ["/w/src/config.cpp:26: warning: documented symbol 'void CConfig::Apply' was not declared or defined.", "/w/src/main.cpp:4:10: fatal error: 'foo.h' file not found"], ['Type Checking']],
    ["C#'s parse errors stay syntax", ['/w/src/App.cs(12,5): error CS1002: ; expected'], ['Syntax Error']],
    ['tox reporting an exit code', ['ERROR: InvocationError for command /w/.tox/py38/bin/pytest (exited with code 1)'], []],
    ["Travis's closing line for tests", ['The command "npm test" exited with 1.'], []],
  ] as const)('not: %s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it("takes the web view's `Error: ` off the runner's exit-code line, not off other text", () => {
    expect(toolLine('Error: Process completed with exit code 137.')).toBe('Process completed with exit code 137.');
    expect(toolLine('Error: Process completed with exit code 1. Retrying')).toBe('Error: Process completed with exit code 1. Retrying');
  });
});
