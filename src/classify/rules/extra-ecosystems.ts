import type { Rule } from './rule.js';

/**
 * Tools of the ecosystems the other tables barely cover (issue 16, fifteenth pass's tuning logs): vstest, sbt and
 * Scala's test interfaces, Haskell's hlint, Zig, D, Erlang/OTP, Nix, conda-build, sqlfluff, GoReleaser, Jenkins's and
 * Travis's own checks.
 */
export const EXTRA_ECOSYSTEM_RULES: Rule[] = [
  {
    // vstest (dotnet test) when the test host died under a test: a crash, and a test run that did not finish.
    id: 'vstest-host-crashed',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'vstest',
    linePattern: /^The active test run was aborted\. Reason: Test host process crashed|^The active Test Run was aborted because the host process exited unexpectedly/,
    example: { command: 'dotnet test', lines: ['The active test run was aborted. Reason: Test host process crashed', 'Test Run Aborted.'] },
  },
  {
    // sbt's test interfaces (junit-interface, ScalaTest's summary) under sbt's `[error]` (and a build server's `[info]`).
    id: 'sbt-test-failed',
    type: 'Test Failure',
    tool: 'sbt',
    linePattern: /^(?:\[[\w:. -]+\] )*\[error\] (?:Failed: Total \d+, Failed [1-9]|(?:java\.lang\.RuntimeException: )?Failed tests:$|\([^)]+\) sbt\.TestsFailedException: Tests unsuccessful)/,
    example: { command: 'sbt test', lines: ['[error] Failed: Total 3, Failed 1, Errors 0, Passed 2', '[error] (Test / test) sbt.TestsFailedException: Tests unsuccessful'] },
  },
  {
    id: 'sbt-test-assertion',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'sbt',
    linePattern: /^(?:\[\w+\] )*\[error\] Test \S+ failed: (?:expected:? ?<.*> but was:? ?<|java\.lang\.AssertionError|org\.junit\.ComparisonFailure)/,
    example: { command: 'sbt test', lines: ['[error] Test TestA.testThree failed: expected:<4> but was:<3>, took 0.003 sec'] },
  },
  {
    // conda-build moves a package whose recipe tests failed to `broken`.
    id: 'conda-build-tests-failed',
    type: 'Test Failure',
    tool: 'conda-build',
    linePattern: /^(?:WARNING:?\s?conda_build\.build:(?:tests_failed\(\d+\): )?)?Tests failed for \S+ - moving package to \S+broken$|^TESTS FAILED: \S/,
    example: { command: 'conda build recipe', lines: ['Tests failed for ctat-mutations-2.1.0-py36_0.tar.bz2 - moving package to /opt/conda/conda-bld/broken', 'TESTS FAILED: ctat-mutations-2.1.0-py36_0.tar.bz2'] },
  },
  {
    // hlint's hints (`path.hs:l:c: Suggestion: …`, `path.hs:(12,5)-(14,7): Warning: …`; GHC's own diagnostics say
    // `error:` in lower case).
    id: 'hlint-hint',
    type: 'Code Linting',
    tool: 'hlint',
    linePattern: /^(\S+\.hs):(?:(\d+):(\d+)(?:-\d+)?|\((\d+),(\d+)\)-\(\d+,\d+\)): (Suggestion|Warning|Error): (.*)$/,
    findingParser: (m) =>
      m[1] === undefined ? undefined : { path: m[1], line: Number(m[2] ?? m[4]), column: Number(m[3] ?? m[5]), message: `${m[6] ?? ''}: ${m[7] ?? ''}` },
    example: { command: 'hlint src', lines: ['./src/Hadolint/Rules.hs:448:5: Suggestion: Move guards forward'] },
  },
  {
    // sqlfluff lint's violations under a `== [path] FAIL` header: `L:  12 | P:   1 | L003 | message`.
    id: 'sqlfluff-violation',
    type: 'Code Linting',
    tool: 'sqlfluff',
    linePattern: /^L:\s*\d+ \| P:\s*\d+ \| [A-Z]{1,3}\d{2,3}\s*\| /,
    example: { command: 'sqlfluff lint models', lines: ['== [models/orders.sql] FAIL', 'L: 112 | P:   1 | L003 | Expected 1 indentation, found 0 [compared to line 111]'] },
  },
  {
    // GoReleaser refuses a tree an earlier step changed.
    id: 'goreleaser-dirty-state',
    type: 'Configuration Error',
    tool: 'goreleaser',
    linePattern: /\berror=git is currently in a dirty state\b|^\s*(?:⨯|тип) release failed after [\d.]+m?s\s+error=git is (?:currently )?in a dirty state/,
    example: { command: 'goreleaser release --clean', lines: ['   ⨯ release failed after 0.02s error=git is currently in a dirty state, please check in your pipeline what can be changing the following files:'] },
  },
  {
    // Zig's test runner: `Test [1/3] test.adds... FAIL (TestExpectedEqual)` and its summary; a failed expectation
    // (`std.testing.expect*`) is an assertion.
    id: 'zig-test-expectation',
    type: 'Assertion Error',
    also: 'Test Failure',
    tool: 'zig',
    linePattern: /^Test \[\d+\/\d+\] .+\.\.\. FAIL \((?:TestExpected\w*|TestUnexpectedResult)\)$|^(?:error: )?'[\w.]+' failed: expected .+, found /,
    example: { command: 'zig build test', lines: ['Test [1/1] test.adds... FAIL (TestExpectedEqual)'] },
  },
  {
    id: 'zig-test-failed',
    type: 'Test Failure',
    tool: 'zig',
    linePattern: /^Test \[\d+\/\d+\] .+\.\.\. FAIL \(\w+\)$|^\d+ passed; \d+ skipped; [1-9]\d* failed\.$/,
    example: { command: 'zig build test', lines: ['Test [1/1] test.parses... FAIL (OutOfMemory)', '0 passed; 0 skipped; 1 failed.'] },
  },
  {
    // Zig's stack trace under an error return or panic: `path.zig:l:c: 0x… in fn (module)`.
    id: 'zig-stack-trace',
    type: 'Runtime Error',
    tool: 'zig',
    // A failed expectation prints the same trace through std/testing.zig.
    yieldsTo: ['Assertion Error'],
    linePattern: /^\S+\.zig:\d+:\d+: 0x[0-9a-f]+ in \S+ \([\w.-]+\)$/,
    context: { before: 1 },
    example: { command: 'zig build test', lines: ['zig build test: error: run test: error: unexpected errno: 22', '/w/lib/std/os.zig:5559:40: 0x10d7c09d9 in unexpectedErrno (build)'] },
  },
  {
    // Nix building for a system the builder is not; Erlang/OTP loading a module compiled for another release.
    id: 'platform-mismatch',
    type: 'Environment Error',
    tool: 'runtime',
    linePattern: /^error: a '[\w-]+' (?:with features \{[^}]*\} )?is required to build '[^']+', but I am a '[\w-]+'|please re-?compile this module with an? \d+ compiler/,
    example: { command: 'nix-build -A pkgsi686Linux.singular', lines: ["error: a 'i686-linux' is required to build '/nix/store/zri1-singular-4.1.1p2.tar.gz.drv', but I am a 'aarch64-linux'"] },
  },
  {
    // D's test runner (dmd's run.d): `>>> TARGET FAILED: runnable/x.d`, then `FAILED targets:`.
    id: 'dmd-test-targets-failed',
    type: 'Test Failure',
    tool: 'dmd',
    linePattern: /^>>> TARGET FAILED: \S+|^FAILED targets:$/,
    example: { command: 'make -C test', lines: ['>>> TARGET FAILED: runnable/exe1.c', 'FAILED targets:', '- runnable/exe1.c'] },
  },
  {
    // Jenkins's declarative-pipeline validator (`jenkins-cli declarative-linter`), as lint scripts print it.
    id: 'jenkinsfile-validation',
    type: 'Code Linting',
    tool: 'jenkins',
    linePattern: /^Errors encountered validating Jenkinsfile: /,
    example: { command: './scripts/linter.sh', lines: ['Errors encountered validating Jenkinsfile: WorkflowScript: 213: Unknown stage section "allOf". @ line 213, column 29.'] },
  },
  {
    // Travis CI could not read the build's configuration.
    id: 'travis-config-invalid',
    type: 'Configuration Error',
    tool: 'travis',
    linePattern: /^ERROR: An error occured while trying to parse your \.travis\.yml file\.?$/,
    example: { command: '.travis.yml', lines: ['ERROR: An error occured while trying to parse your .travis.yml file.', 'Please make sure that the file is valid YAML.'] },
  },
  {
    // Travis's closing line names the command that failed: a formatter's check, alone or the last of a `&&`/`;` chain.
    id: 'travis-formatter-command-failed',
    type: 'Code Formatting',
    tool: 'travis',
    linePattern: /^The command "(?:[^"]*(?:&&|;) *)?(?:cargo fmt|rustfmt|gofmt|black|prettier|clang-format)\b[^"&;|]*" (?:failed and )?exited with [1-9]/,
    fallback: true,
    example: { command: '', lines: ['The command "cargo fmt -- --write-mode=diff" exited with 1.'] },
  },
  {
    // flake8 --statistics: a count per code; E999 is a file that does not parse.
    id: 'flake8-statistics-syntax',
    type: 'Syntax Error',
    also: 'Code Linting',
    tool: 'flake8',
    linePattern: /^\d+\s+E999 SyntaxError: /,
    example: { command: 'flake8 . --count --statistics', lines: ['55    E999 SyntaxError: invalid syntax', '148   F821 undefined name \'xrange\''] },
  },
  {
    // Nitro's prerenderer (Nuxt generate) when pages threw while rendering.
    id: 'nitro-prerender-errors',
    type: 'Runtime Error',
    tool: 'nitro',
    linePattern: /Exiting due to prerender errors\.$/,
    example: { command: 'npx nuxi generate', lines: ['Errors prerendering:', 'Error:  Exiting due to prerender errors.'] },
  },
  {
    // Homebrew's removed commands (`brew cask install`): the workflow calls an installer command that no longer works.
    id: 'brew-command-disabled',
    type: 'Configuration Error',
    also: 'Package Installation Error',
    tool: 'brew',
    linePattern: /^Error: Calling [^!]+ is disabled! Use [^!]+ instead\.$/,
    example: { command: 'brew cask install xquartz', lines: ['Error: Calling brew cask install is disabled! Use brew install [--cask] instead.'] },
  },
  {
    // Spotless naming the formatter step that wants changes (its ktlint step reports a rule and a line).
    id: 'spotless-step-problem',
    type: 'Code Formatting',
    tool: 'spotless',
    linePattern: /^Step '[^']+' found problem in '[^']+':$/,
    context: { after: 3 },
    example: { command: './gradlew spotlessCheck', lines: ["Step 'ktlint' found problem in 'sample/build.gradle.kts':", 'Error on line: 283, column: 21'] },
  },
  {
    // rustup's proxy for a component the toolchain was installed without (the workflow did not ask for rustfmt).
    id: 'rustup-component-not-installed',
    type: 'Configuration Error',
    also: 'Environment Error',
    tool: 'rustup',
    linePattern: /^error: '[\w-]+(?:\.exe)?' is not installed for the toolchain '/,
    example: { command: 'cargo fmt --check', lines: ["error: 'cargo-fmt' is not installed for the toolchain '1.84.1-x86_64-unknown-linux-gnu'."] },
  },
  {
    // Gradle resolving a dependency for a build script that declares no repository.
    id: 'gradle-no-repositories',
    type: 'Configuration Error',
    tool: 'gradle',
    linePattern: /Cannot resolve external dependency \S+ because no repositories are defined\./,
    example: { command: './gradlew build', lines: ["   > Cannot resolve external dependency org.jetbrains.kotlin:kotlin-compiler-embeddable:1.3.71 because no repositories are defined."] },
  },
  {
    // Xcode's build graph with two steps writing one output (an Info.plist both copied and processed): the project's
    // build settings.
    id: 'xcode-multiple-commands-produce',
    type: 'Configuration Error',
    tool: 'xcodebuild',
    linePattern: /^error: Multiple commands produce '/,
    example: { command: 'xcodebuild -scheme App build', lines: ["error: Multiple commands produce '/w/build/Release-iphoneos/App.app/Info.plist'"] },
  },
];
