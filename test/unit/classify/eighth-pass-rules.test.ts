import { describe, expect, it } from 'vitest';
import { tailTypes } from './tail-types.js';

/**
 * Rules from the eighth pass's tuning-half misses (issue 16), as benchmark-style tails (no step header, no markers,
 * the job known to have failed), and the lines that must not label.
 */

describe('eighth pass: rules from real logs', () => {
  it("chai's assertion message (vitest, mocha) is a failed assertion in a failed test", async () => {
    expect(await tailTypes(["AssertionError: expected null to be 'value' // Object.is equality", '- Expected: ', '"value"'])).toEqual(['Assertion Error', 'Test Failure']);
    // A bare AssertionError (Python's assert in a script, node:assert) says nothing of a test.
    expect(await tailTypes(['AssertionError: config must name a region'])).toEqual(['Assertion Error']);
  });

  it('Minitest: the summary, what a test raised, and a failed assertion', async () => {
    const log = [
      'Error:',
      'Admin::StocksTest#test_visiting_the_index:',
      "NameError: undefined local variable or method `admin_stocks_url' for an instance of Admin::StocksTest",
      '    test/system/admin/stocks_test.rb:9:in `block in <class:StocksTest>\'',
      'Failure:',
      'ProductsTest#test_should_create_product [test/system/products_test.rb:14]:',
      'expected to find visible css "h1" with text "Products" but there were no matches.',
      '16 runs, 3 assertions, 3 failures, 13 errors, 0 skips',
    ];
    expect(await tailTypes(log)).toEqual(['Assertion Error', 'Runtime Error', 'Test Failure']);
    expect(await tailTypes(['16 runs, 40 assertions, 0 failures, 0 errors, 0 skips'])).toEqual([]);
    // `Error:` and an exception without the test's name between them is not Minitest's report.
    expect(await tailTypes(['Error:', 'TypeError: x is not a function'])).not.toContain('Test Failure');
  });

  it.each([
    ['javac parse errors under Maven', ['[ERROR] /w/app/src/main/java/com/acme/QuestBoardResource.java:[32,1] illegal start of type', "[ERROR] /w/app/src/main/java/com/acme/QuestBoardResource.java:[33,5] ';' expected"], ['Syntax Error']],
    ["kotlinc's qualified-name parse error", ["e: file:///w/app/src/main/java/com/acme/MainActivity.kt:12:12 Qualified name must be a '.'-separated identifier list"], ['Syntax Error']],
    ['pyrefly', ['ERROR /w/libp2p/kad_dht/utils.py:104:12-60: Object of class `Multihash` has no attribute `digest` [missing-attribute]'], ['Type Checking']],
    ['a native library the linker cannot find', ['          /usr/bin/ld: cannot find -lsoup-3.0: No such file or directory', '          collect2: error: ld returned 1 exit status'], ['Dependency Issues']],
    ['R8 missing classes', ['ERROR: Missing classes detected while running R8. Please add the missing classes or apply additional keep rules'], ['Dependency Issues']],
    ['AAR metadata wanting a newer SDK', ['     > The minCompileSdk (31) specified in a', "       dependency's AAR metadata (META-INF/com/android/build/gradle/aar-metadata.properties)"], ['Dependency Issues']],
    ['Homebrew without the formula', ['##[warning]No available formula with the name "gio-2.0".'], ['Package Installation Error']],
    ['pip before 20.3', ["    Building wheel for cryptography (PEP 517): finished with status 'error'", 'ERROR: Command errored out with exit status 1:'], ['Package Installation Error']],
    ['pip on an externally managed Python', ['error: externally-managed-environment'], ['Environment Error', 'Package Installation Error']],
    ['PowerShell without the command', ["conda.exe: The term 'conda.exe' is not recognized as the name of a cmdlet, function, script file, or operable program."], ['Environment Error']],
    ['Poetry without the command', ['Command not found: pytest'], ['Environment Error']],
    ['a Node.js the tool refuses', ['Node.js v20.20.2 is not supported by Astro!'], ['Environment Error']],
    ['no database service', ['org.postgresql.util.PSQLException: Connection to localhost:5432 refused. Check that the hostname and port are correct and that the postmaster is accepting TCP/IP connections.'], ['Environment Error']],
    ['a JDK older than the target', ['Java compilation initialization error: error: invalid source release: 21'], ['Configuration Error']],
    ['npm publish without a token', ['npm error code ENEEDAUTH', 'npm error need auth This command requires you to be logged in to https://registry.npmjs.org/'], ['Configuration Error']],
    ['a cloud role without the permission', ['[Error at /Stack-dev-VectorDB] You are not authorized to perform this operation. User: arn:aws:sts::1:assumed-role/Deploy/GitHubActions is not authorized to perform: iam:CreateRole'], ['Configuration Error']],
    ['vstest without the test assembly', ['The test source file "D:\\a\\app\\App.Tests\\bin\\Release\\App.Tests.dll" provided was not found.'], ['Configuration Error']],
    ["a Pages artifact's folder that was not built", ['tar: out: Cannot open: No such file or directory', 'tar: Error is not recoverable: exiting now'], ['Configuration Error']],
    ['MSTest assertions', ['  Failed Crud_Update [120 ms]', '  Error Message:', '   Assert.AreEqual failed. Expected:<First>. Actual:<Second>.'], ['Assertion Error', 'Test Failure']],
    ['a PostCSS plugin that is not installed', ["Error: Loading PostCSS Plugin failed: Cannot find module 'tailwindcss'"], ['Dependency Issues']],
    ["vitest's serialized properties of an error a test threw", ['DatabaseError: Failed to open table "chunks"', ' ❯ src/__tests__/e2e/cache.e2e.test.ts:23:5', '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯', "Serialized Error: { code: 'DATABASE_OPEN_TABLE_FAILED', context: { operation: 'open_table' } }"], ['Runtime Error', 'Test Failure']],
    ['swiftc giving up on an expression', ['/w/Sources/App/Views/DebugConsoleView.swift:17:25: error: the compiler is unable to type-check this expression in reasonable time; try breaking up the expression into distinct sub-expressions'], ['Type Checking']],
  ] as const)('%s', async (_what, lines, types) => {
    expect(await tailTypes([...lines])).toEqual([...types]);
  });

  it('exit code 126: the command was found but could not run', async () => {
    expect(await tailTypes(['/home/runner/work/_temp/1b2c.sh: line 1: ./gradlew: Permission denied', 'Process completed with exit code 126.'])).toEqual(['Environment Error']);
  });
});
