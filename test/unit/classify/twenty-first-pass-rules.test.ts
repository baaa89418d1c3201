import { describe, expect, it } from 'vitest';
import { logTypes, tailTypes } from './tail-types.js';

/** Rules written from the twenty-first collection pass's tuning logs (issue 16); the lines are shaped after them. */
describe('twenty-first pass: rules from real logs', () => {
  it.each([
    ['tsc diagnostics as the web view copies them', ["Error: src/api.ts(42,7): error TS2339: Property 'foo' does not exist on type 'Api'."], ['Type Checking']],
    ["a package's declarations the compiler cannot parse", ["Error: node_modules/@types/node/http.d.ts(236,47): error TS1005: ',' expected.", "Error: node_modules/@types/node/http.d.ts(236,71): error TS1109: Expression expected."], ['Dependency Issues', 'Syntax Error']],
    ["a project's own parse error stays a syntax error", ["src/a.ts(3,14): error TS1005: ';' expected."], ['Syntax Error']],
    ["mocha's uncaught chai assertion", ['  2) GET /projects should return 200:', '      Uncaught AssertionError: expected 404 to equal 200', '  1 passing (2s)', '  2 failing'], ['Assertion Error', 'Test Failure']],
    ["a test thread's panic with the message on the same line", ["thread 'influxrpc::tag_keys::list_columns' panicked at 'converted plan: DataFusionExecution', query_tests/src/tag_keys.rs:87:5", 'note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace'], ['Runtime Error', 'Test Failure']],
    ["a test thread's unwrap on an error", ["thread 'transport_tcp_concurrent' panicked at io\\zenoh-transport\\tests\\unicast_concurrent.rs:316:43:", 'called `Result::unwrap()` on an `Err` value: error scheduling message!'], ['Runtime Error', 'Test Failure']],
    ["a script's exception as its last words", ["KeyError: 'data'"], ['Runtime Error']],
    ["Ruby's uncaught exception", ["app.rb:3:in `<main>': undefined local variable or method `x' for main:Object (NameError)"], ['Runtime Error']],
    ['a Ruby exception over its backtrace', ["NoMethodError: undefined method `[]' for nil", "\t/action/judges/github-events/github-events.rb:82:in `block in fetch_release_info'", "\t<internal:kernel>:133:in `then'"], ['Runtime Error']],
    ["Node's hint under an uncaught throw", ['.../node_modules/vue-tsc/bin/vue-tsc.js:68', 'throw err;', '^', 'Search string not found: "for (const existingRoot of buildInfoVersionMap.roots) {"', '(Use `node --trace-uncaught ...` to show where the exception was thrown)'], ['Runtime Error']],
    ["a Java class Maven's exec plugin ran", ['Error:  Failed to execute goal org.codehaus.mojo:exec-maven-plugin:3.0.0:java (default-cli) on project BILIBILI-HELPER: An exception occured while executing the Java class. null: NullPointerException -> [Help 1]'], ['Runtime Error']],
    ['Ormolu', ['Error: Ormolu detected unformatted files'], ['Code Formatting']],
    ['JuliaFormatter', ['┌ Error: Some files have not been formatted !!!', 'src/routines.jl', '└ @ Main /format.jl:111'], ['Code Formatting']],
    ["pkgdown's reference index", ['-- Building function reference -------------------------------------------------', 'Error: Error: Topics missing from index: municipality_key_2022', 'Execution halted'], ['Doc/Docstring']],
    ["Documenter's missing reference", ["┌ Error: no doc found for reference '[`OrderedDict`](@ref)' in src/ordered_containers.md.", '└ @ Documenter.CrossReferences'], ['Doc/Docstring']],
    ['rustdoc lints are not linting', ['error: unresolved link to `flightsql`', '   --> arrow-flight/src/sql/metadata/sql_info.rs:137:61', '    = note: `-D rustdoc::broken-intra-doc-links` implied by `-D warnings`'], ['Doc/Docstring']],
    ['an Octokit client without a token', ['Error: Parameter token or opts.auth is required'], ['Configuration Error']],
    ['git refused with 403 by GitHub', ["fatal: unable to access 'https://github.com/owner/site.git/': The requested URL returned error: 403"], ['Configuration Error']],
    ["buildx's cache export on the docker driver", ['buildx failed with: ERROR: cache export feature is currently not supported for docker driver. Please switch to a different driver (eg. "docker buildx create --use")'], ['Configuration Error']],
    ['a Gradle script applying a file that is not there', ['* What went wrong:', 'A problem occurred evaluating script.', "> Could not read script '/builds/app/android/cordova.variables.gradle' as it does not exist."], ['Configuration Error']],
    ["Go's ambiguous import", ['\tgithub.com/pborman/getopt/v2: ambiguous import: found package github.com/pborman/getopt/v2 in multiple modules:'], ['Dependency Issues']],
    ["Go's inconsistent vendoring", ['go: inconsistent vendoring in /home/runner/work/app/app:'], ['Dependency Issues']],
    ['an R package that is not installed', ['Error: Error in loadNamespace(x) : there is no package called ‘rcmdcheck’', 'Calls: loadNamespace -> withRestarts -> withOneRestart -> doWithOneRestart', 'Execution halted'], ['Dependency Issues']],
    ['a program a tool looks for on PATH', ["Could not find 'brew' command in PATH or standard locations.", "Error: The process '/bin/bash' failed with exit code 1"], ['Environment Error']],
    ['luacheck', ['Checking core/base-shaper.lua                     1 warning', '', '    core/base-shaper.lua:15:1: setting non-standard global variable makenodes', '', 'Total: 2 warnings / 0 errors in 120 files'], ['Code Linting']],
    ['tsc behind a concurrently prefix', ['[test:ts] typings/index.d.ts(118,2): error TS1036: Statements are not allowed in ambient contexts.', '[test:ts] npm run test:ts --silent exited with code 1'], ['Syntax Error']],
    ["pytest's explanation of a failed assert", ['assert (watt2dbm(si.signal) == target - correction).all()', 'assert False', ' +  where False = <built-in method all of numpy.ndarray object at 0x7f01c0ca94d0>()'], ['Assertion Error']],
    ['Composer in the wrong folder', ['Composer could not find a composer.json file in /home/runner/work/decimal/decimal', 'To initialize a project, please create a composer.json file as described in the https://getcomposer.org/ "Getting Started" section'], ['Configuration Error']],
  ] as const)('%s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it.each([
    ["a binary's own assertion (thread 'main')", ["thread 'main' panicked at src/main.rs:191:21:", 'assertion `left == right` failed', '  left: None', ' right: Some(1)'], ['Runtime Error']],
    ["melos's script exit status (the task name says what ran)", ['ScriptException: The script analyze failed to execute.'], ['Type Checking']],
    ['a JSON parse error before the exit', ['SyntaxError: Unexpected token \'w\', "faweoilgj3o9"... is not valid JSON'], []],
    ["a Gem that Bundler cannot find is no runtime error", ["/home/travis/.rvm/rubies/ruby-2.4.0/lib/ruby/site_ruby/2.4.0/rubygems.rb:275:in `find_spec_for_exe': can't find gem bundler (>= 0.a) with executable bundle (Gem::GemNotFoundException)"], ['Dependency Issues']],
    ['luacheck with nothing to report', ['Checking core/font.lua                            OK', 'Total: 0 warnings / 0 errors in 120 files'], []],
    ["a diff's added where clause under a formatter", ['--- a/src/Lib.hs', '+++ b/src/Lib.hs', '-f x = go x', '+  where go  = 1'], []],
    ['a connection error as the last words is no crash', ["requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.org', port=443): Max retries exceeded"], []],
    ["a runtime's worker thread panicking under cargo run", ["thread 'tokio-runtime-worker' panicked at src/server.rs:40:9:", 'called `Result::unwrap()` on an `Err` value: Io'], []],
    ["the compiler's own panic under cargo build", ['   Compiling app v0.1.0 (/w/app)', "thread 'rustc' panicked at compiler/rustc_middle/src/ty/mod.rs:12:5:", 'called `Option::unwrap()` on a `None` value'], []],
    ['a 403 from another host', ["fatal: unable to access 'https://gitlab.example.com/group/repo.git/': The requested URL returned error: 403"], []],
  ] as const)('only the right types: %s', async (_what, lines, expected) => {
    expect(await tailTypes([...lines])).toEqual([...expected]);
  });

  it('an exception the step printed and went on from is not its last words', async () => {
    const log = ['##[group]Run python send.py', "KeyError: 'data'", 'retrying with defaults', 'sent 3 messages', '##[endgroup]', '##[error]Process completed with exit code 1.'].join('\n');
    expect(await logTypes(log)).toEqual([]);
  });
});
