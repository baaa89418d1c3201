import { describe, expect, it } from 'vitest';
import { normalizeLine } from '../../../src/classify/normalize-line.js';
import { tailTypes } from './tail-types.js';

/**
 * Rules from the twelfth pass's tuning-half misses (issue 16), as benchmark-style tails, and the lines that must not
 * label.
 */

describe('twelfth pass: rules from real logs', () => {
  it.each([
    ['MSVC on a .c++ source', ["D:\\a\\capnproto\\c++\\src\\kj\\exception.c++(1176,8): error C2065: 'ssize_t': undeclared identifier [D:\\a\\build\\kj.vcxproj]"], ['Type Checking']],
    ["CMake's imported target not found", ['CMake Error at mk/cmake/modules/SDL2/FindSDL2_gfx.cmake:219 (set_target_properties):', '  The link interface of target "SDL2::SDL2_gfx" contains:', '    SDL2::SDL2-static', '  but the target was not found.  Possible reasons include:'], ['Dependency Issues']],
    ["Groovy's power assertion", ['Running post-build script: D:\\a\\eo\\target\\it\\fibonacci\\verify.groovy', 'Assertion failed: ', 'assert log.contains(it)', '       |   |        |'], ['Assertion Error', 'Test Failure']],
    ["apt's notice that a package is unknown", ["N: Unable to locate package '^libxcb.*-dev'", 'Packages argument cannot be empty.'], ['Package Installation Error']],
    ["cargo's MSRV message, quoted indented", [' error: package `anstream v0.5.0` cannot be built because it requires rustc 1.70.0 or newer, while the currently active rustc version is 1.67.0'], ['Dependency Issues']],
    ["Gradle's daemon out of heap", ['Gradle build daemon has been stopped: since the JVM garbage collector is thrashing'], ['Environment Error']],
    ['CMake built from source', ['Error when bootstrapping CMake:', 'Problem while running initial CMake'], ['Package Installation Error']],
    ["npm's own crash during an install", ["npm ERR! Cannot read property 'length' of undefined"], ['Package Installation Error']],
    ["setup-bun's download time-out", ['Request timeout: /download/latest/linux/x64?avx2=true&profile=false', 'Error: The operation was canceled.'], ['Environment Error']],
    ['git writing into .git as another user', ["fatal: cannot update the ref 'refs/heads/gh-pages': unable to append to '/home/runner/work/iptv/iptv/.git/logs/refs/heads/gh-pages': Permission denied"], ['Environment Error']],
    ["Playwright's browsers not installed, in a mocha hook", ['  1) "before all" hook in "{root}":', "     browserType.launch: Executable doesn't exist at /home/runner/.cache/ms-playwright/chromium-1045/chrome-linux/chrome"], ['Environment Error', 'Test Failure']],
    ["yarn's engine check", ['error office-hours@1.0.0: The engine "node" is incompatible with this module. Expected version "10.16.3". Got "10.17.0"', 'error Found incompatible module.'], ['Dependency Issues']],
    ["Sphinx's extension not installed", ['Extension error:', 'Could not import extension sphinxarg.ext (exception: No module named sphinxarg.ext)'], ['Dependency Issues', 'Doc/Docstring']],
    ["xUnit's assertion", ['  Failed Api.Test.Handlers.Queued [2 s]', '  Error Message:', '   Assert.Equal() Failure: Values differ'], ['Assertion Error', 'Test Failure']],
    ["xUnit's exception in a test", ["[xUnit.net 00:00:05.82]       System.ArgumentOutOfRangeException : Index was out of range. (Parameter 'chunkLength')"], ['Runtime Error', 'Test Failure']],
    ['chart-testing lint', ['Error linting charts: Error processing charts'], ['Code Linting']],
    ['a Haskell dependency that does not build, and a program cabal needs', ['Error: cabal: Failed to build exe:happy from happy-1.20.1 (which is required', "Error: cabal-3.8.1.0: The program 'happy' is required but it could not be", 'found'], ['Environment Error', 'Package Installation Error']],
    ['a Go toolchain download refused by its server', ['Error: Failed to download version 1.25.5: Error: Unexpected HTTP response: 403'], ['Environment Error']],
    ['a Go toolchain that does not exist', ['go: downloading go1.22 (linux/amd64)', 'go: download go1.22 for linux/amd64: toolchain not available', 'Error: Command failed: go env GOPATH'], ['Configuration Error']],
    ['a cache the job requires', ['##[error]Failed to restore cache entry. Exiting as fail-on-cache-miss is set. Input key: build-22.12.0-a4e610e5'], ['Environment Error']],
    ["Terraform's AWS provider without credentials", ['Error: No valid credential sources found for AWS Provider.'], ['Configuration Error']],
    ['a registry refusing the push', ['#27 ERROR: failed to push registry.example.com/app:latest: unexpected status from HEAD request to https://registry.example.com/v2/app/blobs/sha256:4ca6: 401 Unauthorized'], ['Configuration Error']],
  ] as const)('%s', async (_what, lines, types) => {
    expect(await tailTypes([...lines])).toEqual([...types]);
  });

  it("reads a log copied from GitHub's web view without its links to log lines", async () => {
    const copied = 'Error: src/common/validation.ts(1,3[4](https://github.com/o/r/job/17324159764#step:6:5)): error TS230[7](https://github.com/o/r/job/17324159764#step:6:8): Cannot find module \'Ajv\'';
    expect(normalizeLine(copied).text).toBe("Error: src/common/validation.ts(1,34): error TS2307: Cannot find module 'Ajv'");
    // A markdown link that is not a job log line's stays.
    expect(normalizeLine('see [1](https://github.com/o/r/issues/1)').text).toBe('see [1](https://github.com/o/r/issues/1)');
    expect(normalizeLine('See [3](https://github.com/o/r/pull/2#step:6:8)').text).toBe('See [3](https://github.com/o/r/pull/2#step:6:8)');
    const flotilla = 'VSTest version 17.11.1 (x[6](https://github.com/equinor/flotilla/actions/runs/15437921202/job/43448584179?pr=2221#step:5:7)4)';
    expect(normalizeLine(flotilla).text).toBe('VSTest version 17.11.1 (x64)');
    expect(await tailTypes([copied])).toEqual(['Dependency Issues']);
  });

  it('xUnit names its own assertions as Xunit.Sdk exceptions: those are no runtime errors', async () => {
    expect(await tailTypes(['[xUnit.net 00:00:01.10]       Xunit.Sdk.EqualException : Assert.Equal() Failure'])).not.toContain('Runtime Error');
  });
});
