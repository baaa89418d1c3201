import type { Rule } from './rule.js';
import { NODE_HEAP_EXHAUSTED } from './test-runners.js';

/**
 * A test binary or test command that crashed (a signal, an abort): the crash is a Runtime Error and the tests it
 * ran failed (issue 16, sixteenth pass's tuning logs). Tried before the generic native-crash rule, which reads the
 * same lines as a crash alone.
 */
export const TEST_CRASH_RULES: Rule[] = [
  {
    // cargo runs each test target as a binary under `target/<triple>/debug/deps/`; a signal other than the runner's
    // SIGKILL (memory, see sourced/environment.ts) is the tests' crash.
    id: 'cargo-test-binary-crashed',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'cargo',
    linePattern: /process didn't exit successfully: `(?=[^`]*[/\\]deps[/\\])[^`]*` \(signal: \d+, SIG(?!KILL)[A-Z]+/,
    context: { before: 1 },
    example: { command: 'make test', lines: ["error: process didn't exit successfully: `/w/target/debug/deps/tests-883b68254cc6e682 --nocapture` (signal: 11, SIGSEGV: invalid memory reference)"] },
  },
  {
    // The shell's report of a crashed command whose first words name tests (`./Tests`, `python3 pulsar_test.py`,
    // `yarn test`): "test" as a word or a file name's part, not inside another word (`fetch-latest`) or a path
    // argument (`--config tests/app.yml`). Node aborting when its heap runs out is the runner's memory, as in
    // native-crash. Bounded repeats: the command's words are short, and a long line must not backtrack.
    id: 'test-command-crashed',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'runtime',
    disarmPattern: NODE_HEAP_EXHAUSTED,
    linePattern: /(?:Segmentation fault|Aborted|Illegal instruction|Bus error) +\(core dumped\) +(?:\S{1,100} +){0,2}(?:\S{0,100}\/)?(?:\w{0,60}[_-])?(?:[Tt]ests?|\w{0,60}[a-z]Tests?|py\.?test)(?:\.\w{1,10})?(?=\s|$)/,
    example: { command: './ci/run-unit-tests.sh', lines: ['/w/_temp/a.sh: line 1:  3452 Segmentation fault      (core dumped) ./Tests --verbosity high'] },
  },
  {
    // ctest's status of a test whose process crashed (`***Exception: SegFault`, `Child aborted***Exception:`).
    id: 'ctest-test-crashed',
    type: 'Runtime Error',
    also: 'Test Failure',
    tool: 'ctest',
    linePattern: /^\s*(?:\d+\/\d+ )?Test\s+#\d+: \S+ \.*\s*(?:(?:Child|Subprocess) aborted)?\*\*\*Exception: /,
    example: { command: 'ctest --output-on-failure', lines: ['351/730 Test #350: itkMCIRLE_amygdala ...............Child aborted***Exception:   1.61 sec'] },
  },
  {
    // tox reports a command killed by a signal as a negative exit code: tox 3 as an InvocationError, tox 4 as
    // `env: exit -6 (0.86 seconds) dir> command pid=N`.
    id: 'tox-command-signalled',
    type: 'Runtime Error',
    tool: 'tox',
    linePattern: /^ERROR: InvocationError for command .* \(exited with code -(?:4|6|7|8|11)\)$|^[\w.-]+: exit -(?:4|6|7|8|11) \([\d.]+ seconds\) /,
    example: { command: 'tox', lines: ['ERROR: InvocationError for command /w/.tox/py38/bin/stestr run (exited with code -11)'] },
  },
  {
    // The .NET repositories' MSBuild test targets: tests failed, and the test command's crash as MSB3073's exit code.
    id: 'msbuild-tests-failed',
    type: 'Test Failure',
    tool: 'msbuild',
    linePattern: /: error : One or more tests failed while running tests from /,
    example: { command: './build.sh -test', lines: ["/w/Tools/tests.targets(211,5): error : One or more tests failed while running tests from 'System.Collections.Tests' please check log for details!"] },
  },
  {
    id: 'msbuild-test-command-crashed',
    type: 'Runtime Error',
    tool: 'msbuild',
    linePattern: /: warning MSB3073: The command ".*" exited with code 13[49]\.(?: \[\S+\])?$/,
    example: { command: './build.sh -test', lines: ['/w/Tools/tests.targets(202,5): warning MSB3073: The command "/w/bin/tests/RunTests.sh" exited with code 139.'] },
  },
  {
    // jest prints this heading only when a test failed; its worker dying of memory is the runner's limit.
    id: 'jest-failing-tests-summary',
    type: 'Test Failure',
    tool: 'jest',
    linePattern: /^Summary of all failing tests$/,
    example: { command: 'yarn test', lines: ['Summary of all failing tests', ' FAIL  test/topic-test.ts'] },
  },
  {
    id: 'jest-worker-out-of-memory',
    type: 'Environment Error',
    tool: 'jest',
    linePattern: /^\s*Jest worker ran out of memory and crashed$/,
    example: { command: 'yarn test', lines: ['  ● Test suite failed to run', '', '    Jest worker ran out of memory and crashed'] },
  },
  {
    // Surefire's forked JVM died under the tests (a crash or `System.exit`).
    id: 'surefire-fork-crashed',
    type: 'Runtime Error',
    tool: 'surefire',
    // A fork the host killed for memory (`Process Exit Code: 137`, an OutOfMemoryError) is the runner's.
    yieldsTo: ['Environment Error'],
    linePattern: /The forked VM terminated without (?:saying )?properly (?:saying )?goodbye\. VM crash or System\.exit called/,
    example: { command: 'mvn -B verify', lines: ['[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:2.12.4:test (default-test) on project qa: Execution default-test of goal org.apache.maven.plugins:maven-surefire-plugin:2.12.4:test failed: The forked VM terminated without saying properly goodbye. VM crash or System.exit called ? -> [Help 1]'] },
  },
];
