import { CMD } from './commands.js';
import { fileLineFinding, type Rule } from './rule.js';
import { RUST_TEST_ASSERTION_RULES, TEST_THREAD_PANICKED } from './rust-test-assertions.js';

/** Node, Go, Rust and Java toolchains: dependency resolution, installs, type checks and test runners. */
export const ECOSYSTEM_TEST_RULES: Rule[] = [
  // Java/Go/Rust dependency resolution.
  {
    id: 'build-dependency-resolution',
    type: 'Dependency Issues',
    tool: 'build',
    linePattern: /^\s*Duplicate class \S+ found in modules? |but the target was not found\.  Possible reasons include:|Could not (?:resolve|collect) dependencies for project|Could not resolve all (?:files|dependencies) for configuration|no required module provides package|missing go\.sum entry|failed to select a version for the requirement|no matching package named|ambiguous import: found package \S+ in multiple modules/,
    example: { command: 'go build ./...', lines: ['main.go:3:8: no required module provides package github.com/x/y; to add it:'] },
  },
  // TypeScript compiler: TS1xxx are syntax errors, TS5xxx config (see environment.ts), the rest type errors; ts-jest
  // prints the same diagnostics indented under the failed suite.
  {
    // A package's own declaration files the compiler cannot parse: the installed package needs a newer TypeScript
    // than the project's. The cause is a version mismatch (Dependency Issues); what tsc reports is a TS1xxx syntax
    // error, which the issue counts as Syntax Error, so the line proves both.
    id: 'tsc-syntax-in-dependency',
    type: 'Dependency Issues',
    also: 'Syntax Error',
    tool: 'tsc',
    linePattern: /^\s*(?:Error: )?(?:ERROR in )?((?:[^\s(]*\/)?node_modules\/[^\s(]+?\.d\.[cm]?ts)\((\d+),(\d+)\): error (TS1\d{3}): (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'npm run build', lines: ["Error: node_modules/@types/node/http.d.ts(236,47): error TS1005: ',' expected."] },
  },
  {
    id: 'tsc-syntax',
    type: 'Syntax Error',
    tool: 'tsc',
    linePattern: /^\s*(?:\[[\w:.-]+\] )?(?:Error: )?(\S+?)(?:\((\d+),(\d+)\):|:(\d+):(\d+) -) error (TS1\d{3}): (.*)$/,
    findingParser: (m) => fileLineFinding({ path: 1, line: m[2] === undefined ? 4 : 2, column: m[2] === undefined ? 5 : 3, code: 6, message: 7 })(m),
    example: { command: 'npx tsc --noEmit', lines: ["src/a.ts(3,14): error TS1005: ';' expected."] },
  },
  {
    id: 'tsc-error',
    type: 'Type Checking',
    tool: 'tsc',
    linePattern: /^\s*(?:\[[\w:.-]+\] )?(?:Error: )?(\S+?)(?:\((\d+),(\d+)\):|:(\d+):(\d+) -) error (TS\d+): (.*)$/,
    findingParser: (m) => fileLineFinding({ path: 1, line: m[2] === undefined ? 4 : 2, column: m[2] === undefined ? 5 : 3, code: 6, message: 7 })(m),
    example: { command: 'npx tsc --noEmit', lines: ["src/a.ts(2,7): error TS2322: Type 'string' is not assignable to type 'number'."] },
  },
  // npm.
  {
    id: 'npm-eresolve',
    type: 'Dependency Issues',
    tool: 'npm',
    linePattern: /^npm (?:ERR!|error) (?:code ERESOLVE|ERESOLVE )/,
    context: { after: 3 },
    example: { command: 'npm ci', lines: ['npm error code ERESOLVE'] },
  },
  {
    id: 'node-module-not-found',
    type: 'Dependency Issues',
    tool: 'node',
    linePattern: /(?:Error|failed): Cannot find module '([^']+)'|Cannot find package '([^']+)' imported from|Cannot find module '([^']+)' from '|ERR_MODULE_NOT_FOUND|^\s*code: 'MODULE_NOT_FOUND',?$/,
    example: { command: 'node index.js', lines: ["Error: Cannot find module 'left-pad'"] },
  },
  {
    id: 'npm-install-failed',
    type: 'Package Installation Error',
    tool: 'npm',
    // ELIFECYCLE is any package script that failed (`npm run lint`, `npm test`): only an install script's failure is one.
    linePattern: /^npm (?:ERR!|error) (?:code (?:E404|ETARGET|EINTEGRITY|ENOVERSIONS|EBADENGINE|ENOENT)|404 |notarget |[\w@./-]+@\S+ (?:pre|post)?install: )|^error An unexpected error occurred: "https?:\/\/|^ERR_PNPM_(?:FETCH|NO_MATCHING_VERSION)/,
    // `npm publish` prints the package it packed first: its E404 is the registry refusing the upload (a
    // configuration error, actions-config.ts), not a dependency that could not be fetched.
    disarmPattern: /^npm notice (?:total files:|=== Tarball Contents ===|Publishing to )/,
    context: { after: 2 },
    example: { command: 'npm install', lines: ['npm error code E404'] },
  },
  // Tests.
  {
    id: 'jest-assertion',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'jest',
    commandPattern: CMD.jest,
    linePattern: /^\s*(?:Error: |Uncaught )?(?:expect\(received\)|expect\(jest\.fn\(\)\)|AssertionError(?: \[ERR_ASSERTION\])?:|AssertionError \[ERR_ASSERTION\]|code: 'ERR_ASSERTION')/,
    context: { after: 4 },
    example: { command: 'npx jest', lines: ['    expect(received).toBe(expected) // Object.is equality'] },
  },
  {
    id: 'jest-failed',
    type: 'Test Failure',
    tool: 'jest',
    commandPattern: CMD.jest,
    linePattern: /^\s*● .+ › |^Tests:\s+\d+ failed|^FAIL \S+\.(?:[cm]?[jt]sx?)\b|^\s*✕ |^not ok \d+ /,
    example: { command: 'npx jest', lines: ['Tests:       1 failed, 2 passed, 3 total'] },
  },
  {
    // package:test's matcher failure (`dart test`, `flutter test`): `Expected: …` then `  Actual: …`. After an
    // exception thrown while building a widget, the finders that fail are its consequence, not the failure.
    id: 'dart-matcher-assertion',
    type: 'Assertion Error',
    tool: 'dart',
    yieldsTo: ['Runtime Error'],
    linePattern: /^\s+Actual: /,
    previousPattern: /^\s*Expected: /,
    context: { before: 1, after: 1 },
    example: { command: 'dart test', lines: ['Expected: <2>', '  Actual: <3>'] },
  },
  {
    id: 'go-testify-assertion',
    type: 'Assertion Error',
    tool: 'go',
    commandPattern: CMD.goTest,
    linePattern: /^\s+Error:\s+(?:Not equal|Should be|Should not be|Expected|Received unexpected)/,
    context: { before: 2, after: 3 },
    example: { command: 'go test ./...', lines: ['        	Error:      	Not equal: '] },
  },
  {
    id: 'go-test-failed',
    type: 'Test Failure',
    tool: 'go',
    commandPattern: CMD.goTest,
    linePattern: /^\s*--- FAIL: (\S+)|^FAIL\s+\S+\s+[\d.]+s$/,
    example: { command: 'go test ./...', lines: ['--- FAIL: TestAdd (0.00s)'] },
  },
  {
    id: 'go-test-location',
    type: 'Test Failure',
    tool: 'go',
    commandPattern: CMD.goTest,
    linePattern: /^\s{4}(\S+_test\.go):(\d+): (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, message: 3 }),
    example: { command: 'go test ./...', lines: ['    calc_test.go:8: Add(2, 2) = 5; want 4'] },
  },
  ...RUST_TEST_ASSERTION_RULES,
  {
    id: 'cargo-assertion',
    type: 'Assertion Error',
    tool: 'cargo',
    commandPattern: CMD.cargo,
    linePattern: /assertion `left == right` failed|assertion failed: |assertion `left != right` failed/,
    context: { before: 1, after: 2 },
    example: { command: 'cargo test', lines: ['assertion `left == right` failed'] },
  },
  {
    // A test's thread (named after the test, a Rust path; a build script's or binary's is `main`, which node-uncaught
    // reads, the compiler's `rustc`, a runtime's workers `tokio-runtime-worker`) that panicked with a message other
    // than an assertion's: an exception in a test, not a failed assertion, so the test failed too. Before Rust
    // 1.73 the message follows on the same line (`panicked at 'called `Result::unwrap()` …', src/x.rs:3:5`).
    id: 'cargo-test-panic',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'cargo',
    commandPattern: CMD.cargo,
    linePattern: new RegExp(`${TEST_THREAD_PANICKED}'(?!assertion)`),
    example: { command: 'cargo test', lines: ["\tthread 'typedarray' panicked at 'called `Result::unwrap()` on an `Err` value: ()', libcore\\result.rs:945:5"] },
  },
  {
    // Since Rust 1.73 the message is on the next line (`thread 't' panicked at src/x.rs:3:5:`): the panics of unwrap,
    // indexing and arithmetic.
    id: 'cargo-test-panic-message',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'cargo',
    commandPattern: CMD.cargo,
    previousPattern: new RegExp(`${TEST_THREAD_PANICKED}\\S+:\\d+:\\d+:$`),
    linePattern: /^called `(?:Result|Option)::unwrap\(\)` on an? `(?:Err|None)` value|^index out of bounds: |^attempt to (?:add|subtract|multiply|divide|negate|shift left|shift right) with overflow/,
    context: { before: 1 },
    example: { command: 'cargo test', lines: ["thread 'tests::parses' panicked at src/lib.rs:10:5:", 'called `Result::unwrap()` on an `Err` value: ParseError'] },
  },
  {
    // A failed test's output under its `---- name stdout ----` heading (a log cut after the heading); with
    // `--show-output`, passed tests' output comes first under `successes:`.
    id: 'cargo-test-stdout-heading',
    type: 'Test Failure',
    tool: 'cargo',
    commandPattern: CMD.cargo,
    linePattern: /^---- [\w:]+ stdout ----$/,
    disarmPattern: /^successes:$/,
    example: { command: 'cargo test', lines: ['---- tests::parses stdout ----', "thread 'tests::parses' panicked at src/lib.rs:10:5:"] },
  },
  {
    // Go's testing package recovers a test's panic and panics again with `[recovered]`: the test crashed.
    id: 'go-test-panic',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'go',
    linePattern: /^panic: .+ \[recovered(?:, repanicked)?\]$/,
    context: { after: 1 },
    example: { command: './scripts/test.sh', lines: ['panic: runtime error: index out of range [2] with length 1 [recovered]', '\tpanic: runtime error: index out of range [2] with length 1'] },
  },
  {
    id: 'cargo-test-failed',
    type: 'Test Failure',
    tool: 'cargo',
    commandPattern: CMD.cargo,
    // libtest lists the failed tests' output under `failures:` (only when a test failed).
    linePattern: /^test \S+ \.\.\. FAILED$|^test result: FAILED\.|^failures:$/,
    example: { command: 'cargo test', lines: ['test tests::adds ... FAILED'] },
  },
  {
    // Gradle's test logger in its short form: `Class > test FAILED`, then the exception and where it was thrown.
    id: 'gradle-test-logger-assertion',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'gradle',
    linePattern: /^\s+(?:java\.lang\.AssertionError|org\.opentest4j\.AssertionFailedError|org\.junit\.ComparisonFailure|junit\.framework\.(?:AssertionFailedError|ComparisonFailure)) at \S+\.(?:kt|java|groovy|scala):\d+$/,
    context: { before: 1 },
    example: { command: './gradlew check', lines: ['ops.TestArtifactsRepoTest > should not throw when token not set FAILED', '    java.lang.AssertionError at TestArtifactsRepoTest.kt:15'] },
  },
  {
    id: 'java-assertion',
    type: 'Assertion Error',
    // JUnit's and Hamcrest's assertion exceptions are thrown by failed tests; a compiler that crashed on its own
    // assertion (javac's `An exception has occurred in the compiler`, kotlinc's `e: java.lang.AssertionError`) is none.
    also: 'Test Failure',
    disarmPattern: /An exception has occurred in the compiler|^e: java\.lang\.AssertionError/,
    tool: 'junit',
    commandPattern: CMD.java,
    linePattern: /org\.opentest4j\.AssertionFailedError|java\.lang\.AssertionError|junit\.framework\.(?:AssertionFailedError|ComparisonFailure)|org\.junit\.ComparisonFailure/,
    example: { command: 'mvn -B test', lines: ['org.opentest4j.AssertionFailedError: expected: <4> but was: <5>'] },
  },
  {
    // Surefire's one-line summary of a failed test (`Class.method:42`, `Class>Base.setUp:20`, `->helper:72` frames; see
    // its newerrorsummary.md; Maven's `[ERROR]` reads `Error: ` on GitHub Actions): a comparison's `expected:<1> but
    // was:<2>` (a message may come first) or an assertion or Mockito verification thrown below the method (`»`).
    id: 'surefire-test-assertion',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'surefire',
    linePattern: /^(?:\[ERROR\]|Error:)\s+[\w$.>]+:\d+(?:->[\w$.]+:\d+)*(?: » (?:Assertion\w*|ComparisonFailure|MultipleFailures\w*|WantedButNotInvoked|TooFewActualInvocations|TooManyActualInvocations|ArgumentsAreDifferent|NeverWantedButInvoked|NoInteractionsWanted)\b| [^<]*?expected:? ?<.*> but was:? ?<)/,
    example: { command: 'mvn -B verify', lines: ['[ERROR]   CalcTest.adds:12 sum ==> expected: <4> but was: <5>'] },
  },
  {
    // Any other exception thrown below the test method (Surefire drops `Exception`: `» NullPointer`); time-outs are
    // failed tests only.
    id: 'surefire-test-exception',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'surefire',
    linePattern: /^(?:\[ERROR\]|Error:)\s+[\w$.>]+:\d+(?:->[\w$.]+:\d+)* » (?!ConditionTimeout|Timeout|TestTimedOut)\w+/,
    example: { command: 'mvn -B verify', lines: ['Error:  Failures: ', 'Error:    UriTest.testUriTrimmedUrl:54->helper:72 » NullPointer'] },
  },
  {
    id: 'java-test-failed',
    type: 'Test Failure',
    tool: 'junit',
    commandPattern: CMD.java,
    linePattern: /Tests run: \d+, Failures: [1-9]|Tests run: \d+, Failures: \d+, Errors: [1-9]|There (?:were|was) (?:a )?failing tests?|There are test failures\.|^\S+ > \S+.* FAILED$/,
    example: { command: './gradlew test', lines: ['CalcTest > adds() FAILED'] },
  },
  // Linters and formatters.
];
