import { describe, expect, it } from 'vitest';
import { tailTypes } from './tail-types.js';

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
  ] as const)('%s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it.each([
    ['a Dockerfile RUN of a build script', ['ERROR: failed to build: failed to solve: process "/bin/sh -c make all" did not complete successfully: exit code: 2'], []],
    ["GHC's own errors are no hlint hints", ['src/Main.hs:12:5: error:', '    • Variable not in scope: foo'], []],
  ] as const)('not: %s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });
});
