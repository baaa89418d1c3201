import { describe, it } from 'vitest';
import { readsAs } from './tail-types.js';

/** Rules written from the twenty-third collection pass's tuning logs (issue 16); the lines are shaped after them. */
describe('twenty-third pass: rules from real logs', () => {
  it.each([
    ["Python's faulthandler on Windows", ['collected 152 items', '', 'Windows fatal exception: access violation', '', 'Current thread 0x00000b38 (most recent call first):', '  File "D:\\a\\lib\\tests\\conftest.py", line 30 in amrex_init'], ['Runtime Error']],
    ["Node's OpenSSL 3 refusing webpack 4's hash", ['Error: error:0308010C:digital envelope routines::unsupported', '    at new Hash (node:internal/crypto/hash:68:19)', '    at Object.createHash (node:crypto:138:10)'], ['Runtime Error']],
    ["ruff's full output with a fix marker", ['I001 [*] Import block is un-sorted or un-formatted', '  --> tests/test_leaderboard_feed.py:14:1'], ['Code Linting']],
    ["ruff's full output without one", ['F821 Undefined name `np`', '  --> app/stats.py:12:5'], ['Code Linting']],
    ["pip's closing line of a failed build subprocess", ['      readme = readme_file.read()', "    UnicodeDecodeError: 'charmap' codec can't decode byte 0x90 in position 2891: character maps to <undefined>", '    [end of output]'], ['Package Installation Error']],
    ['MSBuild running npm ci that failed', ['src/Dashboard/Frontend.targets(56,5): error MSB3073:', 'The command "npm ci --prefer-offline --no-audit --fetch-retries=5" exited with code 152.'], ['Package Installation Error']],
    ["MSVC's linker missing a symbol", ['  re2.lib(stringpiece.cc.obj) : error LNK2001: unresolved external symbol __std_find_trivial_1 [D:\\a\\p\\build\\Native.vcxproj]'], ['Dependency Issues']],
    ["MSVC's linker missing a library", ["  LINK : fatal error LNK1181: cannot open input file '..\\lib\\common\\win32\\tier0.lib' [D:\\a\\g\\games.sln]"], ['Dependency Issues']],
    ['a .NET SDK older than the target framework', ['Error: C:\\Program Files\\dotnet\\sdk\\9.0.306\\Sdks\\Microsoft.NET.Sdk\\targets\\Microsoft.NET.TargetFrameworkInference.targets(166,5): error NETSDK1045: The current .NET SDK does not support targeting .NET 10.0.  Either target .NET 9.0 or lower.'], ['Configuration Error']],
    ['setup-java given a version it cannot parse', ["Error: The string '-457401206' is not valid SemVer notation for a Java version. Please check README file for code snippets and more detailed information"], ['Configuration Error']],
    ["clap's option without a value (inside a Docker build)", ['0.104 --- Building wheel with maturin ---', "0.111 error: a value is required for '--target <TRIPLE>' but none was supplied", '0.111 ', "0.111 For more information, try '--help'."], ['Configuration Error']],
    ["Codecov's uploader throttled", ["[2024-08-12T19:47:58.788Z] ['error'] There was an error running the uploader: Error uploading to https://codecov.io: Error: There was an error fetching the storage URL during POST: 429 - {'detail': ErrorDetail(string='Rate limit reached. Please upload with the Codecov repository upload token to resolve issue.')}", "Error: Codecov: Failed to properly upload: The process '/home/runner/work/_actions/codecov/codecov-action/v3/dist/codecov' failed with exit code 255"], ['Environment Error']],
    ["cspell's findings", ['CSpell: Files checked: 5, Issues found: 4 in 1 files', '##[error]./.vscode/cspell.json:80:10 - Unknown word (adfs)', '##[error]Spelling errors detected.'], ['Code Linting']],
    ['yamllint under a Jenkins clock', ['17:23:00  + python3 -m yamllint .', '17:23:08  ./playbooks/nuke.yml', '17:23:08    3:17      error    truthy value should be one of [false, true]  (truthy)'], ['Code Linting']],
    ["MkDocs' link warnings in a failed build", ['INFO    -  Building documentation to directory: /w/site', "WARNING -  Doc file 'pages/input_types/jinja.md' contains a link '../argocd/docs/README.md', but the target 'pages/argocd/docs/README.md' is not found among documentation files."], ['Doc/Docstring']],
    ["LinkChecker's summary with errors", ["That's it. 5557 links in 5593 URLs checked. 39 warnings found. 10 errors found.", 'Stopped checking at 2025-02-18 22:41:37+000 (4 minutes, 16 seconds)'], ['Doc/Docstring']],
    ["Julia's test summary with a failure", ['Test Summary:                      | Pass  Fail  Broken  Total', 'HDF5.jl                            | 1498     1       3   1502'], ['Test Failure']],
    ["Julia's test summary with an error", ['Test Summary: | Pass  Error  Total', 'Foo           |   10      1     11'], ['Test Failure']],
    ['R without a package', ['Error in library(pak, lib.loc = .Library.site) : ', '    there is no package called ‘pak’'], ['Dependency Issues']],
    ["Bundler's lockfile without the runner's platform", ['Your bundle only supports platforms ["aarch64-linux-gnu"] but your local', 'platform is x86_64-linux.'], ['Dependency Issues']],
    ["Twisted trial's failed assertion", ['[FAIL]', 'Traceback (most recent call last):', '  File "/w/twisted/trial/_synctest.py", line 732, in successResultOf', '    self.fail(', 'twisted.trial.unittest.FailTest: Success result expected on <Deferred at 0x7fd1>, found failure result instead:'], ['Assertion Error', 'Test Failure']],
  ] as const)('%s', readsAs);

  it.each([
    ["a rustc pointer is not ruff's", ['error[E0425]: cannot find value `x` in this scope', ' --> src/main.rs:3:5'], ['Type Checking']],
    ['a .py pointer after no ruff code line', ['Something happened', '  --> app/main.py:1:8'], []],
    ['pip output closed without the footer', ['      running egg_info'], []],
    ['MSBuild running a test command (not an install)', ['error MSB3073:', 'The command "npm test" exited with code 1.'], []],
    ["LinkChecker's summary with no errors", ["That's it. 120 links in 130 URLs checked. 3 warnings found. 0 errors found."], []],
    ["Julia's test summary with passes only", ['Test Summary: | Pass  Broken  Total', 'Foo           |   10       1     11'], []],
    ['cspell with no issues', ['CSpell: Files checked: 5, Issues found: 0 in 0 files'], []],
    ['a Codecov rate limit yields to what else the step says', ['FAILED tests/test_a.py::test_x - assert 1 == 2', "[2026-02-25T05:27:11.314Z] ['error'] There was an error running the uploader: Error uploading to https://codecov.io: Error: There was an error fetching the storage URL during POST: 429 - {}"], ['Assertion Error', 'Test Failure']],
    ["MkDocs' info about pages outside nav", ['INFO    -  The following pages exist in the docs directory, but are not included in the "nav" configuration:', '  - tags.md'], []],
  ] as const)('only the right types: %s', readsAs);
});

/** The pass's second round. */
describe('twenty-third pass, second round: rules from real logs', () => {
  it.each([
    ["pipenv relaying pip's verdict", ['⠸An error occured while installing!', '  Could not find a version that satisfies the requirement pytest-cov (from -r /tmp/req.txt (line 1)) (from versions: )', 'No matching distribution found for pytest-cov (from -r /tmp/req.txt (line 1))'], ['Package Installation Error']],
    ["pip 1.5's words", ['  No distributions at all found for mccabe<0.4,>=0.2.1 (from flake8->-r requirements.txt (line 2))', 'make: *** [.build/dev-requirements.timestamp] Error 1'], ['Package Installation Error']],
    ['pip crashing inside its command runner', ['ERROR: Exception:', 'Traceback (most recent call last):', '  File "/opt/hostedtoolcache/Python/3.7.10/x64/lib/python3.7/site-packages/pip/_internal/cli/base_command.py", line 180, in _main', '    status = self.run(options, args)'], ['Package Installation Error']],
  ] as const)('%s', readsAs);

  it.each([
    ["pip's words quoted mid-line", ['hint: "No matching distribution found for x" usually means a typo in requirements.txt'], []],
  ] as const)('only the right types: %s', readsAs);
});

/** The pass's third round. */
describe('twenty-third pass, third round: rules from real logs', () => {
  it.each([
    ["Kotlin 2's Compose compiler plugin missing", ['> Configure project :app', 'e: com.android.builder.errors.EvalIssueException: Starting in Kotlin 2.0, the Compose Compiler Gradle plugin is required when compose is enabled. See the following link for more information: https://d.android.com/r/studio-ui/compose-compiler', 'BUILD FAILED in 59s'], ['Configuration Error']],
  ] as const)('%s', readsAs);
});
