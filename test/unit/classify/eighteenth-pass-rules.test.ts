import { describe, expect, it } from 'vitest';
import { tailTypes } from './tail-types.js';

/**
 * Rules from the eighteenth pass's tuning-half misses (issue 16): installers and build systems outside Python and
 * JavaScript, test frameworks the runner rules did not read, prefixes of other tools' logs.
 */

describe('eighteenth pass', () => {
  it.each([
    ["setup-ruby's bundle install", ["Error: Error: The process '/opt/hostedtoolcache/Ruby/3.0.4/x64/bin/bundle' failed with exit code 16", '    at ExecState._setResult (/home/runner/work/_actions/ruby/setup-ruby/v1/dist/index.js:4945:25)'], ['Package Installation Error']],
    ["an action's Windows installer", ["Error: Error: The process 'D:\\a\\w\\cuda_installer-windows-12.8.1.exe' failed with exit code 3772776473"], ['Package Installation Error']],
    ["pak's failed plan with its conflicts", ['  <simpleError: Cannot install packages:', "  * devtools: Can't install dependency sessioninfo", '  * sessioninfo: Conflicts with r-lib/sessioninfo@a68df12'], ['Dependency Issues', 'Package Installation Error']],
    ["pacman's transaction", ['error: failed to commit transaction (cannot open package file)', 'Errors occurred, no packages were upgraded.'], ['Package Installation Error']],
    ["bun's unresolved packages", ['error: @putout/cli-keypress@^1.0.0 failed to resolve', 'error: putout@^32.0.0 failed to resolve'], ['Dependency Issues', 'Package Installation Error']],
    ['a setup action asked for a version it cannot install', ["Error: Could not find satisfied version for SemVer '1.8'."], ['Configuration Error', 'Package Installation Error']],
    ["setup-python's missing version", ["Error: The version '3.7' with architecture 'x64' was not found for Ubuntu 24.04."], ['Configuration Error', 'Package Installation Error']],
    ['a crate that needs a newer rustc', ['package `time-macros v0.2.11` cannot be built because it requires rustc 1.67.0 or newer, while the currently active rustc version is 1.66.0'], ['Dependency Issues']],
    ["cargo's patch that does not resolve", ['error: failed to resolve patches for `https://github.com/rust-lang/crates.io-index`'], ['Dependency Issues']],
    ["meson's missing dependency", ["meson.build:96:8: ERROR: Dependency lookup for freetype2 with method 'pkgconfig' failed: Pkg-config for machine host machine not found. Giving up."], ['Dependency Issues']],
    ["meson's unknown options", ['meson.build:1:0: ERROR: Unknown options: "harfbuzz, libtool"'], ['Configuration Error']],
    ['configure without a C compiler', ['configure: error: no acceptable C compiler found in $PATH'], ['Environment Error']],
    ["CMake's toolchain file", ['CMake Error at CMakeDetermineSystem.cmake:104 (message):', '  Could not find toolchain file:', '  /opt/ndk/build/cmake/android.toolchain.cmake'], ['Configuration Error']],
    ["ts-loader's parse error", ['[tsl] ERROR in /app/node_modules/typesense/lib/Documents.d.ts(2,13)', "      TS1005: '=' expected."], ['Syntax Error']],
    ["ts-loader's compiler options", ['[tsl] ERROR', "      TS5023: Unknown compiler option 'foo'."], ['Configuration Error']],
    ["ts-loader's five-digit type code", ['[tsl] ERROR in /app/src/index.ts(4,7)', "      TS18048: 'user' is possibly 'undefined'."], ['Type Checking']],
    ["ts-loader's type error", ['[tsl] ERROR in /app/src/index.ts(4,7)', "      TS2322: Type 'string' is not assignable to type 'number'."], ['Type Checking']],
    ['an Android SDK directory the build may not write', ['> Failed to install the following SDK components:', '  [ConstraintLayout for Android 1.0.0]', '  The SDK directory (/home/vagrant/android-sdk) is not writeable,'], ['Environment Error', 'Package Installation Error']],
    ["Gradle's test JVM killed", ["> Process 'Gradle Test Executor 1' finished with non-zero exit value 137"], ['Environment Error']],
    ['PyPI refusing a version it has', ['ERROR    HTTPError: 400 Bad Request from https://upload.pypi.org/legacy/', "         File already exists ('pkg-0.1.0-py3-none-any.whl', with     "], ['Configuration Error']],
    ['gpg that cannot sign', ['gpg: signing failed: Inappropriate ioctl for device'], ['Configuration Error']],
    ["Create React App's warnings under CI", ['Treating warnings as errors because process.env.CI = true.', 'Most CI servers set it automatically.', 'Failed to compile.'], ['Code Linting']],
    ['an ExUnit test that raised', ['  1) test stops the timer (Rclex.TimerTest)', '     test/rclex/timer_test.exs:40', '     ** (RuntimeError) failed to start child'], ['Runtime Error', 'Test Failure']],
    ['an ExUnit assertion', ['  1) test adds (CalcTest)', '     test/calc_test.exs:5', '     Assertion with == failed'], ['Assertion Error', 'Test Failure']],
    ["MSTest's exception in a test", ['Test method Tests.ClientTest.Sends threw exception: ', 'System.NullReferenceException: Object reference not set to an instance of an object.'], ['Runtime Error', 'Test Failure']],
    ["scalatest's failed assertion", ['  tests.TestFailedException: failed assertion at tests/Suite.scala:121'], ['Assertion Error', 'Test Failure']],
    ["go test's timeout panic", ['panic: test timed out after 10m0s', 'running tests:', '\tTestGatewayTar (9m52s)'], ['Runtime Error', 'Test Failure']],
    ["glibc's heap check", ['[ RUN      ] TPCCTests.WithoutLoggingBwTreeIndexes', 'free(): invalid pointer'], ['Runtime Error']],
    ["an action's TypeError without its name", ["##[error]Cannot read property 'number' of undefined"], ['Runtime Error']],
    ['a conftest whose import failed', ["ImportError while loading conftest '/w/numpy/conftest.py'.", 'numpy/__init__.py:135: in <module>', '    raise ImportError(msg) from e', 'E   ImportError: Error importing numpy: you should not try to import numpy from'], ['Dependency Issues']],
    ['a conftest whose dependency raised', ["ImportError while loading conftest '/w/tests/conftest.py'.", 'tlbx/object_utils.py:73: in initializer', "E   AttributeError: module 'inspect' has no attribute 'getargspec'"], ['Runtime Error']],
    ["nose's failure header names unittest", ['======================================================================', 'FAIL: Failure: AssertionError (ch.blw.layer)', '----------------------------------------------------------------------', 'Traceback (most recent call last):', '  File "/w/tests/test_layers.py", line 82, in ilayersWithFeatures', '    assert (models is not None and len(models) > 0), layer', 'AssertionError: ch.blw.layer'], ['Assertion Error', 'Test Failure']],
    ["tox 4's command killed by a signal", ['py: commands[1]> coverage run tests/aggregate_tests.py', 'py: exit -6 (0.86 seconds) /w/repo> coverage run tests/aggregate_tests.py pid=4425', 'py: FAIL code -6 (53.39=setup[52.46]+cmd[0.08,0.86] seconds)'], ['Runtime Error']],
    ["Flutter's verbose prefixes", ['[        ] e: /w/app/src/main/kotlin/MainActivity.kt: (18, 36): Type mismatch: inferred type is String? but String was expected', '[   +3 ms] e: /w/app/src/main/kotlin/MainActivity.kt: (19, 35): Type mismatch: inferred type is String? but String was expected', '[ +102 ms] FAILURE: Build failed with an exception.'], ['Type Checking']],
  ] as const)('%s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it.each([
    ['an Android SDK licence not accepted stays its own rule', ['> Failed to install the following Android SDK packages as some licences have not been accepted.'], ['Package Installation Error']],
    ['an ExUnit compile error is no runtime error', ['     ** (CompileError) test/calc_test.exs:3: undefined function add/2'], []],
    ["a numbered list that names no test module", ['  1) test the build locally first'], []],
    ['a meson dependency found: NO is a status line', ['Run-time dependency iconv found: NO (tried builtin and system)'], []],
    ['a gpg warning', ["gpg: WARNING: unsafe permissions on homedir '/home/r'"], []],
    ["another action's bundle exec", ["##[error]The process '/opt/hostedtoolcache/Ruby/3.2.2/x64/bin/bundle' failed with exit code 1", '    at ExecState._setResult (/home/runner/work/_actions/maierj/fastlane-action/v3/dist/index.js:1:1)'], []],
    ['an uninstaller', ["##[error]The process 'C:\\tools\\uninstall.exe' failed with exit code 1"], []],
    ['a numbered step list with a parenthesis', ['  1) test your app locally (optional)'], []],
    ["ExUnit's database connection refused", ['     ** (DBConnection.ConnectionError) tcp connect (localhost:5432): connection refused - :econnrefused'], []],
    ["kotlinc's own assertion", ['e: java.lang.AssertionError: Unexpected IR element found during code generation'], []],
    ["javac's crash", ['An exception has occurred in the compiler (17.0.2). Please file a bug against the Java compiler via the Java bug reporting page.', 'java.lang.AssertionError: typecode ERROR'], []],
    ["tox 4's command exiting 1", ['py: exit 1 (0.86 seconds) /w/repo> pytest pid=4425'], []],
    ['another Gradle worker exiting 1', ["> Process 'Gradle Test Executor 1' finished with non-zero exit value 1"], []],
  ] as const)('not: %s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });
});
