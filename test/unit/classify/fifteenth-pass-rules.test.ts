import { describe, expect, it } from 'vitest';
import { logTypes as types, tailTypes } from './tail-types.js';

/** Rules from the fifteenth pass's tuning-half misses (issue 16): release and container jobs, less common ecosystems. */

describe('fifteenth pass', () => {
  it.each([
    ['a Dockerfile RUN of apt-get that failed with nothing else said', ['Dockerfile:6', '   6 | >>> RUN apt-get update -qq && apt-get install -qq -y dumb-init gosu', 'ERROR: failed to build: failed to solve: process "/bin/sh -c apt-get update -qq && apt-get install -qq -y dumb-init gosu" did not complete successfully: exit code: 100'], ['Package Installation Error']],
    ['semantic-release refused by the remote', ['[semantic-release] › ✘  The command "git push --dry-run --no-verify https://[secure]@github.com/o/r.git HEAD:main" failed with the error message remote: Write access to repository not granted.'], ['Configuration Error']],
    ["conda-build's recipe tests", ['+ ctat_mutations --help', 'Tests failed for ctat-mutations-2.1.0-py36_0.tar.bz2 - moving package to /opt/conda/conda-bld/broken', 'TESTS FAILED: ctat-mutations-2.1.0-py36_0.tar.bz2'], ['Test Failure']],
    ['chart-testing without the history to diff', ['Linting charts...', 'Error: Error linting charts: Error identifying charts to process: Error running process: exit status 128'], ['Configuration Error']],
    ["GoReleaser's dirty tree", ['   • getting and validating git state', '   ⨯ release failed after 0.02s error=git is currently in a dirty state, please check in your pipeline what can be changing the following files:', ' M go.sum'], ['Configuration Error']],
    ["Zig's stack trace", ['zig build test: error: run test: error: unexpected errno: 22', '/w/lib/zig/std/debug.zig:561:19: 0x10d819f48 in writeCurrentStackTrace__anon_12364 (build)'], ['Runtime Error']],
    ["sbt's failed tests behind a server's [info]", ['[info] [error] Test TestA.testThree failed: expected:<4> but was:<3>, took 0.003 sec', '[info] [error] Failed: Total 1, Failed 1, Errors 0, Passed 0', '[info] [error] (test:test) sbt.TestsFailedException: Tests unsuccessful'], ['Assertion Error', 'Test Failure']],
    ["hlint's hints", ['./src/Hadolint/Rules.hs:448:5: Suggestion: Move guards forward', 'Found:', '  [arg | cmd <- cmds]'], ['Code Linting']],
    ["sqlfluff's violations", ['== [models/orders.sql] FAIL', 'L: 112 | P:   1 | L003 | Expected 1 indentation, found 0 [compared to line 111]'], ['Code Linting']],
    ["sbt's unresolved dependencies, as a quote with line numbers", ['35 | [warn] \t::          UNRESOLVED DEPENDENCIES         ::', '37 | [warn] \t:: ch.epfl.lamp#dotty-compiler_0.19;0.19.0-RC1: not found'], ['Dependency Issues']],
    ['cabal with its version in its name', ['Error: cabal-3.10.1.0: Could not resolve dependencies:', '[__0] trying: text-ansi-0.3.0 (user goal)'], ['Dependency Issues']],
    ['cabal 3.12 and later', ['Error: [Cabal-7107]', 'Could not resolve dependencies:', '[__0] trying: text-ansi-0.3.0 (user goal)'], ['Dependency Issues']],
    ['Nix asked to build for another system', ["error: a 'i686-linux' is required to build '/nix/store/zri1-singular-4.1.1p2.tar.gz.drv', but I am a 'aarch64-linux'"], ['Environment Error']],
    ['an Erlang module compiled for another OTP', ['beam/beam_load.c(1624): Error loading module rebar_utils:', '  please re-compile this module with an 23 compiler (old-style fun with indices: 2/6)'], ['Environment Error']],
    ["pak's source package that did not build", ['  ✖ Failed to build OmnipathR 3.11.1', '  Error: ', '  ! error in pak subprocess', '  ! Failed to build source package OmnipathR.'], ['Package Installation Error']],
    ["Scala 3's error headers", ['[error] -- [E007] Type Mismatch Error: /w/modules/relation/src/main/RelationApi.scala:193:52 ', '[error]     |Found:    (me : lila.core.user.Me)'], ['Type Checking']],
    ['Go\'s lower-case ENOSPC', ['open /var/lib/docker/vfs/dir/c714/usr/share/doc/libselinux1/copyright: no space left on device', 'make: *** [target/docker-platform-monitor.gz] Error 1'], ['Environment Error']],
    ["C# errors as Azure DevOps's summary writes them", ["+ AssemblyInfo.cs (59): code\\test\\VsEmulator\\Properties\\AssemblyInfo.cs(59,12): Error CS0246: The type or namespace name 'CommandLine' could not be found"], ['Type Checking']],
    ["D's test runner", ['>>> TARGET FAILED: runnable/exe1.c', 'FAILED targets:', '- runnable/exe1.c'], ['Test Failure']],
    ['pytest that could not import a test module, cut before the exception', ['______________________ ERROR collecting tests/test_ssm.py ______________________', "ImportError while importing test module '/w/tests/test_ssm.py'.", 'Hint: make sure your test modules/packages have valid Python names.', 'Traceback:'], ['Dependency Issues']],
    ["Maven's failsafe verify", ['[ERROR] Failed to execute goal org.apache.maven.plugins:maven-failsafe-plugin:2.19.1:verify (default) on project app: There are test failures.', '[ERROR] -> [Help 1]'], ['Test Failure']],
    ["node-gyp run by an install script behind TeamCity's prefix", ['[12:54:32][npm install] gyp ERR! build error ', '[12:54:32][npm install] gyp ERR! stack Error: `C:\\Program Files (x86)\\MSBuild\\14.0\\bin\\msbuild.exe` failed with exit code: 1', '[12:54:32][npm install] gyp ERR! not ok'], ['Package Installation Error']],
    ["an install script npm echoed before a failure nothing else explains", ['> nslog@3.0.0 install C:\\projects\\app\\node_modules\\nslog', '> node-gyp rebuild', "c1xx : fatal error C1083: Cannot open source file: 'win_delay_load_hook.cc'"], ['Package Installation Error']],
    ["Jenkins's declarative-pipeline validator", ['vars/edgeXBuildDocker.groovy successfully validated', 'Errors encountered validating Jenkinsfile: WorkflowScript: 213: Unknown stage section "allOf". @ line 213, column 29.', 'Linting has failed for vars/edgeXBuildGoApp.groovy'], ['Code Linting']],
    ['pytest pointed at no tests (a long run)', ['collecting ... collected 0 items', '', '==================== no tests ran in 75.12s (0:01:15) ===================='], ['Configuration Error']],
    ["sbt 1.x's task keys", ['[error] Failed: Total 3, Failed 1, Errors 0, Passed 2', '[error] (core / Test / test) sbt.TestsFailedException: Tests unsuccessful'], ['Test Failure']],
    ["Zig's failed expectation, with its trace through std.testing", ['Test [1/1] test.adds... FAIL (TestExpectedEqual)', '/usr/lib/zig/std/testing.zig:84:17: 0x224f4f in expectEqual__anon_1 (test)', '0 passed; 0 skipped; 1 failed.'], ['Assertion Error', 'Test Failure']],
    ["Zig's failed test that threw", ['Test [1/1] test.parses... FAIL (OutOfMemory)', '0 passed; 0 skipped; 1 failed.'], ['Test Failure']],
    ["hlint's span form", ['src/Foo.hs:(12,5)-(14,7): Warning: Use concatMap'], ['Code Linting']],
    ["javac's errors as Gradle repeats them under What went wrong", ['> Compilation failed; see the compiler output below.', '  /w/app/src/main/java/com/example/app/MainActivity.java:51: error: cannot find symbol', '      OnnxAsr asr = new OnnxAsr();', '  1 error', '', 'BUILD FAILED in 44s'], ['Type Checking']],
  ] as const)('%s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it.each([
    ['a Dockerfile RUN of a build script', ['ERROR: failed to build: failed to solve: process "/bin/sh -c make all" did not complete successfully: exit code: 2'], []],
    ['a Dockerfile RUN that installs, then builds', ['ERROR: failed to solve: process "/bin/sh -c npm ci && npm run build" did not complete successfully: exit code: 1'], []],
    ["the project's own lifecycle script npm echoes", ['> app@1.0.0 postinstall /w/app', '> husky install', 'husky - .git can\'t be found'], []],
    ["an optional dependency's node-gyp failure beside a failed test", ['gyp ERR! build error', 'gyp ERR! not ok', 'npm WARN optional SKIPPING OPTIONAL DEPENDENCY: fsevents@1.2.4', 'Tests:       1 failed, 3 passed, 4 total'], ['Test Failure']],
    ['pytest run twice, once on no tests', ['=========================== no tests ran in 0.01s ============================', 'FAILED tests/test_calc.py::test_add - assert 1 == 2', '========================= 1 failed, 3 passed in 0.12s ========================='], ['Assertion Error', 'Test Failure']],
    ["a passing mypy's success line before the runner's exit line", ['Success: no issues found in 7 source files'], []],
    // Since the twenty-second pass GHC's errors are type errors (output-signatures.ts); they are still no hlint hints.
    ["GHC's own errors are no hlint hints", ['src/Main.hs:12:5: error:', '    • Variable not in scope: foo'], ['Type Checking']],
    ["Gradle's own `> ` lines are no block quote", ['> Task :app:compileJava', '> Task :app:test', 'BUILD SUCCESSFUL in 3s'], []],
    ["pytest's all-passed summary before another command's exit code", ['============================= 10 passed in 1.00s ==============================', 'FAIL Required test coverage of 80% not reached. Total coverage: 75.00%'], []],
    ["pip's success line before a later command's exit code", ['Successfully installed requests-2.32.3 urllib3-2.2.2', 'Running the report script'], []],
  ] as const)('not: %s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it('reads output quoted as a Markdown block quote', async () => {
    const quoted = ['> ERROR: An error occured while trying to parse your .travis.yml file.', '>', '> Please make sure that the file is valid YAML.', '> Done: Job Cancelled'];
    expect(await types(quoted.join('\n'))).toEqual(['Configuration Error']);
    // Gradle's output alone, all `> ` lines: its `> Task :` lines keep naming Gradle.
    expect(await types(['> Task :app:test FAILED', '> There were failing tests. See the report at: file:///w/app/build/reports/tests/test/index.html'].join('\n'))).toEqual(['Test Failure']);
  });

  it('reads a quoted TeamCity log: the quote goes before the prefix', async () => {
    const quoted = ['> [12:54:32][npm install] gyp ERR! build error ', '> [12:54:32][npm install] gyp ERR! stack Error: `make` failed with exit code: 2', '> [12:54:32][npm install] gyp ERR! not ok'];
    expect(await types(quoted.join('\n'))).toEqual(['Package Installation Error']);
  });

  it('reads the no-tests run as a benchmark tail stores it', async () => {
    expect(await types(['collecting ... collected 0 items', '', '============================ no tests ran in 0.01s =============================', 'Process completed with exit code 5.'].join('\n'))).toEqual(['Configuration Error']);
  });

  it("reads npm's success line as the install's end: a later command's exit code is not the install's", async () => {
    const step = (lines: string[]): string =>
      ['2024-01-01T00:00:00.0000000Z ##[group]Run npm ci && node scripts/build.js', '2024-01-01T00:00:00.1000000Z ##[endgroup]', ...lines.map((l) => `2024-01-01T00:00:01.0000000Z ${l}`), '2024-01-01T00:00:02.0000000Z ##[error]Process completed with exit code 1.'].join('\n');
    expect(await types(step(['added 312 packages, and audited 313 packages in 7s', 'build: writing dist/app.js']))).toEqual([]);
    expect(await types(step(['npm warn deprecated glob@7.2.3']))).toEqual(['Package Installation Error']);
  });
});
