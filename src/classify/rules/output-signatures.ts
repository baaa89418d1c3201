import { ERROR_TYPES } from '../../domain/error-types.js';
import { EXCEPTION_YIELDS } from './environment.js';
import { RUFF_FULL_READING } from './python-quality.js';
import { fileLineFinding, outputRule as signature, type Rule } from './rule.js';

/**
 * Output signatures from the twenty-second and twenty-third collection passes' tuning logs (issue 16): each is a message its tool
 * prints in one fixed form, so it decides the type behind any wrapper command. Tried after the other corpus and
 * sourced rules, so a line another rule knows keeps its reading.
 */
export const OUTPUT_SIGNATURE_RULES: readonly Rule[] = [
  // mypy's diagnostic (`path.py:line: error: message`, its code in brackets after two spaces unless old or hidden),
  // which no other Python tool prints (pyright writes `path.py:line:col - error:`).
  signature('mypy-error-without-command', 'Type Checking', 'mypy', /^(?:Error: )?(\S+?\.pyi?):(\d+):(?:(\d+):)? error: (.+?)(?: {2}\[([a-z][a-z-]*)\])?$/, 'tests/array.py:83: error: No overload variant of "__setitem__" of "ndarray" matches argument types "int", "Decimal"  [call-overload]', {
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4, code: 5 }),
  }),
  // PHP's parse error with the file wrapped onto the next line (`... unexpected '[' in` / `path on line 20`).
  signature('php-parse-error-wrapped', 'Syntax Error', 'php', /^(?:PHP )?Parse error:\s+syntax error, unexpected .* in\s*$/, "PHP Parse error:  syntax error, unexpected '[' in "),
  // GHC's type errors (`Couldn't match expected type ‘A’ with actual type ‘B’`, with or without the bullet).
  signature('ghc-type-error', 'Type Checking', 'ghc', /^\s*(?:• )?Couldn't match (?:expected )?type [‘`']|^\s*(?:• )?No instance for [‘(]|^\s*(?:• )?Variable not in scope: /, "    • Couldn't match expected type ‘Exp Code’ with actual type ‘Code’"),
  // Psalm's GitHub output format: `path:line:col: IssueType: message (see https://psalm.dev/NNN)`.
  signature('psalm-parse-error', 'Syntax Error', 'psalm', /^(?:Error: )?([^\s#]\S*\.php):(\d+):(\d+): ParseError: (.*) \(see https:\/\/psalm\.dev\/\d+\)$/, 'Error: src/a.php:12:5: ParseError: Syntax error, unexpected T_STRING (see https://psalm.dev/173)', {
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
  }),
  // Its errors only (`Error: ` is the web view's `##[error]`; a `##[warning]` is not one).
  signature('psalm-issue', 'Type Checking', 'psalm', /^(?:Error: )?([^\s#]\S*\.php):(\d+):(\d+): (?!ParseError:)([A-Z][A-Za-z]+): (.*) \(see https:\/\/psalm\.dev\/\d+\)$/, 'Error: lib/Service/App.php:315:48: InvalidArgument: Argument 1 of App::get expects string, but int provided (see https://psalm.dev/004)', {
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
  }),
  // Julia's Pkg resolver.
  signature('julia-unsatisfiable', 'Dependency Issues', 'julia-pkg', /^(?:ERROR: (?:LoadError: )?)?Unsatisfiable requirements detected for package /, 'ERROR: Unsatisfiable requirements detected for package OpenBLAS_jll [4536629a]:'),
  // Yarn Berry's frozen-lockfile check (YN0028 FROZEN_LOCKFILE_EXCEPTION): the lockfile does not match package.json.
  signature('yarn-berry-frozen-lockfile', 'Dependency Issues', 'yarn', /➤ YN0028: /, '➤ YN0028: The lockfile would have been created by this install, which is explicitly forbidden.'),
  // Helm building a chart's dependencies whose repositories were never added.
  signature('helm-repository-missing', 'Dependency Issues', 'helm', /^Error: no repository definition for /, "Error: no repository definition for https://kubernetes.github.io/kube-state-metrics. Please add the missing repos via 'helm repo add'", { also: 'Configuration Error' }),
  // SwiftPM (xcodebuild -resolvePackageDependencies) unable to fetch a package; not its cache warning, after which it
  // clones the package directly.
  signature('swiftpm-clone-failed', 'Dependency Issues', 'swiftpm', /^\s*Failed to clone repository https?:\/\/\S+:?$/, '  Failed to clone repository https://github.com/acme/Toast#spm:', {
    example: { command: './ci.sh', lines: ['xcodebuild: error: Could not resolve package dependencies:', '  Failed to clone repository https://github.com/acme/Toast#spm:'] },
  }),
  // Rollup's native binary missing after an npm install (npm's optional-dependencies bug).
  signature('npm-optional-dependency-missing', 'Dependency Issues', 'npm', /npm has a bug related to optional dependencies/, 'Error: Cannot find module @rollup/rollup-linux-x64-gnu. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828).'),
  // Go's module loading under GOPATH-era and module-era go get.
  signature('go-module-load-failed', 'Dependency Issues', 'go', /unable to detect version control system for \S+ path$|^go: error loading module requirements$|^(?:build \S+: )?cannot load [\w-]+(?:\.[\w-]+)+\/[\w./-]+: /, 'package code.google.com/p/go.net/context: unable to detect version control system for code.google.com/ path'),
  // The runner cannot download an action at the ref the workflow names.
  signature('action-download-failed', 'Configuration Error', 'runner', /Failed to download action '[^']+'\. Error:? Response status code does not indicate success: 404/, "##[warning]Failed to download action 'https://api.github.com/repos/acme/lint/tarball/vmaster'. Error Response status code does not indicate success: 404 (Not Found)."),
  // An action's own action.yml the runner cannot load.
  signature('action-manifest-invalid', 'Configuration Error', 'runner', /^(?:##\[error\]|Error: )?[\w.-]+\/[\w./-]+\/action\.ya?ml \(Line: \d+, Col: \d+\)/, "Error: acme/build-action/v1/action.yml (Line: 30, Col: 1): 'branding' is already defined"),
  // `python -m pkg` when the package is not installed in the interpreter that runs it.
  signature('python-m-module-missing', 'Dependency Issues', 'python', /Error while finding module specification for '[^']+' \(ModuleNotFoundError: No module named /, "/usr/local/bin/python: Error while finding module specification for 'app.main' (ModuleNotFoundError: No module named 'app')"),
  // R CMD check's dependency check.
  signature('r-check-packages-unavailable', 'Dependency Issues', 'R CMD check', /Packages? required but not available:/, '  Packages required but not available: dplyr, ggplot2'),
  // Codecov refusing a tokenless upload.
  signature('codecov-token-required', 'Configuration Error', 'codecov', /Token required because branch is protected/, 'error - 2026-03-29 06:27:23,460 -- Upload queued for processing failed: {"message":"Token required because branch is protected"}'),
  // A Docker image tag that does not exist (a Dockerfile's FROM, a container action's image); only when nothing else
  // explains the step (a cache image that is not there yet is pulled with `|| true`).
  signature('docker-manifest-unknown', 'Configuration Error', 'docker', /manifest for \S+ not found: manifest unknown/, 'manifest for alpine:0.0.0 not found: manifest unknown: manifest unknown', { yieldsTo: ERROR_TYPES }),
  // Maven given something that is neither a phase nor a goal (a mangled -D option).
  signature('maven-unknown-phase', 'Configuration Error', 'maven', /^\[ERROR\] Unknown lifecycle phase "/, '[ERROR] Unknown lifecycle phase ".skipTests=true". You must specify a valid lifecycle phase or a goal'),
  // Setuptools built by a Python whose pkgutil lost ImpImporter (3.12): the installer itself is too old.
  signature('pip-pkgutil-impimporter', 'Package Installation Error', 'pip', /AttributeError: module 'pkgutil' has no attribute 'ImpImporter'/, "AttributeError: module 'pkgutil' has no attribute 'ImpImporter'. Did you mean: 'zipimporter'?"),
  // Terraform unable to reach its registry.
  signature('terraform-registry-unreachable', 'Environment Error', 'terraform', /could not connect to registry\.terraform\.io|Failed to request discovery document: Get/, 'hashicorp/random: could not connect to registry.terraform.io: Failed to'),
  // A JVM HTTP client's connect time-out (Gradle, Maven downloads).
  signature('jvm-connect-timeout', 'Environment Error', 'jvm', /Connect to (?!(?:localhost|127\.0\.0\.1)[:\s])\S+ \[[^\]]+\] failed: Connect(?:ion)? timed out/, '> Connect to repo.example.org:80 [repo.example.org/217.146.69.16] failed: Connect timed out'),
  // minikube giving up on its machine.
  signature('minikube-guest-failed', 'Environment Error', 'minikube', /^X Exiting due to (?:GUEST_PROVISION|GUEST_START|HOST_\w+|PROVIDER_\w+_NOT_RUNNING): /, "X Exiting due to GUEST_PROVISION: Failed to start host: creating host: create: Error creating machine"),
  // A C extension build on a Windows runner without the compiler.
  signature('msvc-missing', 'Environment Error', 'setuptools', /error: Microsoft Visual C\+\+ 1\d\.\d or greater is required/, 'error: Microsoft Visual C++ 14.0 or greater is required. Get it with "Microsoft C++ Build Tools"'),
  // CMake's find_program finding nothing on the runner.
  signature('cmake-program-missing', 'Environment Error', 'cmake', /^\s*Could not find \w+ using the following names: /, '  Could not find PKGCONFIG using the following names: pkg-config', {
    // find_library prints the same sentence for a library, which is a dependency, not a program on the machine.
    previousPattern: /\(find_program\):$/,
    example: { command: './ci.sh', lines: ['CMake Error at scripts/cmake/vcpkg_fixup_pkgconfig.cmake:279 (find_program):', '  Could not find PKGCONFIG using the following names: pkg-config'] },
  }),
  // Xcode's command-line tools missing on the macOS machine.
  signature('xcode-tools-missing', 'Environment Error', 'xcode', /xcode-select: Failed to locate '[^']+', requesting installation of command line developer tools/, "xcode-select: Failed to locate 'clang', requesting installation of command line developer tools."),
  // A preinstalled PHPUnit newer than the PHP the job selected.
  signature('phpunit-php-too-old', 'Environment Error', 'phpunit', /^This version of PHPUnit requires PHP (?:>= ?)?[\d.]+/, 'This version of PHPUnit requires PHP 5.6; using the latest version of PHP is highly recommended.'),
  // Go's parser (gc prints `path:line[:col]: syntax error: ...`, and `non-declaration statement outside function body`).
  signature('go-syntax-error', 'Syntax Error', 'go', /^(\S+\.go):(\d+)(?::(\d+))?: (syntax error: .+|non-declaration statement outside function body)$/, 'github.com/acme/app/api.go:447: non-declaration statement outside function body', {
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
  }),
  // golangci-lint's text output (`path:line[:col]: message (linter)`), its linters named.
  signature('golangci-lint-named-linter', 'Code Linting', 'golangci-lint', /^\s*(\S+\.go):(\d+)(?::(\d+))?: (.+) \((?:errcheck|govet|staticcheck|unused|gosimple|ineffassign|deadcode|varcheck|structcheck|golint|revive|gocritic|gosec|misspell|stylecheck|unconvert|lll|dupl|goconst|gocyclo|nakedret|prealloc|unparam|bodyclose|noctx|errorlint|exhaustive|nolintlint|whitespace|funlen|gocognit|nestif|godot|gomnd|exportloopref|scopelint|errname|forcetypeassert|gochecknoglobals)\)$/, '    server/main.go:13: Error return value of `http.ListenAndServe` is not checked (errcheck)', {
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
  }),
  // RuboCop's offenses (`path.rb:line:col: C: message`) without its command.
  signature('rubocop-offense', 'Code Linting', 'rubocop', /^(\S+\.(?:rb|rake|gemspec|ru)):(\d+):(\d+): [CWEF]: (?:\[Correctable\] )?(.+)$/, 'spec/rails/matchers/status_spec.rb:105:13: C: Space missing to the left of {.', {
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
  }),
  // ESLint's stylish line (`line:col  error  message  rule-id`) without its file header or command; not
  // eslint-plugin-prettier's rule, which reports formatting (this rule leaves that line to the others).
  signature('eslint-stylish-error', 'Code Linting', 'eslint', /^\s*\d+:\d+ +error {2,}\S(?:.*\S)? {2,}(?!prettier\/prettier$)(?:@[\w-]+\/)?[a-z][\w-]*(?:\/[\w-]+)*$/, "2:8  error  '_' is defined but never used  no-unused-vars"),
  // cpplint (`path:line:  message  [category/name] [confidence]`), also behind ctest's test-number prefix.
  signature('cpplint-violation', 'Code Linting', 'cpplint', /^(?:\d+: )?(\S+\.(?:c|cc|cpp|cxx|cu|h|hh|hpp|hxx)):(\d+):  (.+?)  \[[a-z_]+\/[a-z_+]+\] \[[1-5]\]$/, '3: /opt/src/config.hpp:85:  Lines should be <= 100 characters long  [whitespace/line_length] [2]', {
    findingParser: fileLineFinding({ path: 1, line: 2, message: 3 }),
  }),
  // commitlint's verdict on a commit message.
  signature('commitlint-problems', 'Code Linting', 'commitlint', /^✖ +found [1-9]\d* problems?, \d+ warnings?$/, '✖   found 2 problems, 0 warnings'),
  // golangci-lint's formatters (`File is not \`gofmt\`-ed`, gci, goimports, gofumpt) report formatting.
  signature('golangci-lint-formatter', 'Code Formatting', 'golangci-lint', /^\s*(\S+\.go):(\d+)(?::(\d+))?: (.+) \((?:gofmt|gofumpt|goimports|gci)\)$/, 'main.go:5: File is not `goimports`-ed (goimports)', {
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
  }),
  // go vet's composites check.
  signature('go-vet-composites', 'Code Linting', 'go-vet', /^(\S+\.go):(\d+)(?::(\d+))?: (\S+ composite literal uses unkeyed fields)$/, 'services/a_test.go:36: github.com/acme/app/lib.Survey composite literal uses unkeyed fields', {
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
  }),
  // SwiftLint's violations (`<Rule Name> Violation: message (rule_id)`), plain or as workflow commands.
  // Errors only (bare, the runner having taken its `##[error]`; or behind the web view's `Error: `): without --strict a
  // warning fails nothing, and SwiftLint often runs inside a build that failed for another reason. Its summary says
  // when violations were serious.
  signature('swiftlint-violation', 'Code Linting', 'swiftlint', /^(?:##\[error\]|Error: |\S+\.swift:\d+(?::\d+)?: error: )?(?:[A-Z][\w-]* )+Violation: .* \([a-z_]+\)$/, 'Error: Line Length Violation: Line should be 200 characters or less: currently 444 characters (line_length)'),
  signature('swiftlint-serious', 'Code Linting', 'swiftlint', /^Done linting! Found \d+ violations?, [1-9]\d* serious in \d+ files?\.$/, 'Done linting! Found 3 violations, 2 serious in 40 files.'),
  // super-linter's per-language verdict (formatters have their own names).
  signature('super-linter-format', 'Code Formatting', 'super-linter', /Found errors (?:when linting |in \[)\w*(?:BLACK|PRETTIER|ISORT|FORMAT|FMT|RUST_20\d\d)\w*\]?/, '[ERROR]   Found errors when linting PYTHON_BLACK. Exit code: 1.'),
  signature('super-linter-lint', 'Code Linting', 'super-linter', /Found errors (?:when linting |in \[)[A-Z_]+\]?(?:\. Exit code: \d+| linter)/, '2025-10-04 17:26:57 [ERROR]   Found errors when linting MARKDOWN. Exit code: 1.'),
  // scalafmt's check (sbt scalafmtCheck), its apostrophe sometimes HTML-escaped by the page it was copied from.
  signature('scalafmt-check', 'Code Formatting', 'scalafmt', /isn(?:'|&#39;)t formatted properly!?$| has changes after scalafmt$|ScalafmtCheckFailure: \d+ Scala sources? not formatted/, "[warn] /w/core/src/main/scala/App.scala isn't formatted properly!"),
  // nbdev's clean check: the notebooks carry output or metadata nbdev_clean strips.
  signature('nbdev-unstripped', 'Code Formatting', 'nbdev', /^!!! Detected unstripped out notebooks/, '!!! Detected unstripped out notebooks'),
  // An anyhow/eyre error report with its backtrace: a Rust program that gave up.
  signature('rust-error-backtrace', 'Runtime Error', 'rust', /^Stack backtrace:$/, 'Stack backtrace:', { context: { before: 2 }, yieldsTo: EXCEPTION_YIELDS }),
  // A .NET exception with its stack: the first `   at ...` frame under `System.XxxException: message`.
  signature('dotnet-unhandled-exception', 'Runtime Error', 'dotnet', /^ {3}at \S+/, '   at GitVersion.GitObject..ctor(GitObject innerGitObject)', {
    previousPattern: /^(?:Unhandled [Ee]xception[.:] )?System\.(?:[A-Z]\w*\.)*[A-Z]\w*Exception: /,
    context: { before: 1 },
    yieldsTo: EXCEPTION_YIELDS,
    example: { command: './ci.sh', lines: ['System.NullReferenceException: Object reference not set to an instance of an object.', '   at GitVersion.GitObject..ctor(GitObject innerGitObject) in D:\\a\\GitObject.cs:line 12'] },
  }),
  // Vitest failing a green run on errors it caught outside the tests.
  signature('vitest-unhandled-errors', 'Runtime Error', 'vitest', /^Vitest caught \d+ unhandled errors? during the test run/, 'Vitest caught 1 unhandled error during the test run.'),
  // Docs generators' own failures.
  signature('docusaurus-link-unresolved', 'Doc/Docstring', 'docusaurus', /Docs markdown link couldn't be resolved: /, 'Error: Docs markdown link couldn\'t be resolved: (./setup.mdx) in "/w/docs/docs/intro.mdx" for version current'),
  // cargo doc (rustdoc) failing on a crate.
  signature('cargo-doc-failed', 'Doc/Docstring', 'cargo', /^(?:error: )?[Cc]ould not document `[^`]+`\.?$/, 'Could not document `khronos_api`.'),
  signature('sphinx-extension-error', 'Doc/Docstring', 'sphinx', /^sphinx\.errors\.ExtensionError: |^Sphinx parallel build error:$/, "sphinx.errors.ExtensionError: Handler <function process_docstring at 0x7f03371f0820> for event 'autodoc-process-docstring' threw an exception (exception: )"),
  signature('r-check-undocumented', 'Doc/Docstring', 'R CMD check', /^\s*Undocumented (?:arguments in documentation object '|code objects:$|data sets:$|S4 (?:classes|methods):$)/, "   Undocumented arguments in documentation object 'show_ratemat'"),
  // Test summaries and assertions of frameworks the other rules do not know.
  signature('ginkgo-failed-expectation', 'Assertion Error', 'ginkgo', /^\s*\[FAILED\] (?:Expected$|Expected\s|Unexpected error:)/, '  [FAILED] Expected', { also: 'Test Failure' }),
  signature('testify-require-no-error', 'Assertion Error', 'go-test', /^\s*(?:\S+\.go:\d+: )?No error is expected but got /, '\tpachyderm_test.go:5255: No error is expected but got Get http://0.0.0.0:31800/file1: dial tcp: connection refused', { also: 'Test Failure' }),
  signature('gocheck-assert', 'Assertion Error', 'gocheck', /^\.\.\. (?:value|obtained) \S+ = /, '... value *net.OpError = &net.OpError{Op:"dial"}', { also: 'Test Failure', previousPattern: /^\s*c\.(?:Assert|Check)\(/, example: { command: './ci.sh', lines: ['    c.Assert(err, IsNil)', '... value *net.OpError = &net.OpError{Op:"dial"}'] } }),
  signature('junit-comparison-failure', 'Assertion Error', 'junit', /^(?:junit\.framework|org\.junit)\.ComparisonFailure: /, 'junit.framework.ComparisonFailure: expected:<06/04/10> but was:<4/10/06>', { also: 'Test Failure' }),
  signature('surefire-test-failure-line', 'Test Failure', 'surefire', /^\S+\([\w.$]+\) {2}Time elapsed: [\d.]+ s(?:ec)? {2}<<< (?:FAILURE|ERROR)!$/, 'test1(net.java.amateras.xlsbeans.XLSBeansTest)  Time elapsed: 0.086 sec  <<< FAILURE!'),
  // jest's own rule reads the bare line; the web view's `Error: ` prefix (annotations of a failed step) hides it.
  signature('jest-snapshot-mismatch', 'Assertion Error', 'jest', /^(?:Error: )?\s*expect\((?:value|received)\)\.toMatchSnapshot\(\)$/, 'Error:      expect(received).toMatchSnapshot()', { also: 'Test Failure' }),
  signature('scalatest-tests-failed', 'Test Failure', 'scalatest', /\*\*\* \d+ TESTS? FAILED \*\*\*/, '[info] *** 1 TEST FAILED ***'),
  signature('catch-summary-failed', 'Test Failure', 'catch', /^test cases:\s+\d+ \|\s+(?:\d+ passed \|\s+)?[1-9]\d* failed(?! as expected)/, 'test cases:  4 |  3 passed | 1 failed'),
  signature('shunit2-assert', 'Assertion Error', 'shunit2', /^ASSERT:(?:line \d+: )?.*expected:<.*> but was:</, 'ASSERT:line 45: No parameter expected:<12:25:45> but was:<12:25:46>', { also: 'Test Failure' }),
  signature('nbval-output-mismatch', 'Assertion Error', 'nbval', /^\s*assert reference_output == test_output failed/, ' assert reference_output == test_output failed:', { also: 'Test Failure' }),
  signature('jest-snapshots-failed', 'Assertion Error', 'jest', /^\s*› \d+ snapshots? failed from \d+ test suites?\./, '     › 46 snapshots failed from 6 test suites. Inspect your code changes or run `yarn test -u` to update them.', { also: 'Test Failure' }),
  signature('testthat-error-match', 'Assertion Error', 'testthat', /^Actual message: ".*"$/, 'Actual message: "y must have 1 element"', { also: 'Test Failure', previousPattern: /^Expected match: ".*"$/, example: { command: './ci.sh', lines: ['Expected match: "y must be an atomic vector"', 'Actual message: "y must have 1 element"'] } }),
  signature('testthat-summary-failed', 'Test Failure', 'testthat', /^\[ FAIL [1-9]\d* \| WARN \d+ \| SKIP \d+ \| PASS \d+ \]$/, '[ FAIL 1 | WARN 0 | SKIP 5 | PASS 312 ]'),
  signature('testthat-failure', 'Assertion Error', 'testthat', /^\s*(?:── )?Failure \('[^']+\.R:\d+(?::\d+)?'\): /, " Failure ('test-expect-header.R:120:5'): expect_header works with actual network too", { also: 'Test Failure' }),
  // Twenty-third pass.
  // Python's faulthandler on Windows (the crash itself; `Fatal Python error` is read elsewhere).
  signature('windows-fatal-exception', 'Runtime Error', 'python', /^Windows fatal exception: (?:access violation|stack overflow|code 0x[0-9a-fA-F]+|illegal instruction|in-page error|int divide by zero|floating point)/, 'Windows fatal exception: access violation'),
  // Node 17+ (OpenSSL 3) refusing webpack 4's md4 hash: the build tool crashes.
  signature('node-openssl-unsupported', 'Runtime Error', 'node', /error:0308010C:digital envelope routines::unsupported|code: 'ERR_OSSL_EVP_UNSUPPORTED'/, 'Error: error:0308010C:digital envelope routines::unsupported'),
  // ruff's full output (the `ruff-full-violation` rule's) behind a wrapper: a code line, then its pointer to a Python file.
  signature('ruff-full-without-command', 'Code Linting', 'ruff', /^\s*--> (\S+\.(?:py|pyi|ipynb))(?::cell \d+)?:(\d+):(\d+)$/, '  --> tests/test_feed.py:14:1', {
    ...RUFF_FULL_READING,
    example: { command: './ci.sh', lines: ['I001 [*] Import block is un-sorted or un-formatted', '  --> tests/test_feed.py:14:1'] },
  }),
  // pip's closing line of a failed build subprocess's output (metadata, wheel, egg_info).
  signature('pip-subprocess-output-end', 'Package Installation Error', 'pip', /^\s*\[end of output\]$/, '      [end of output]'),
  // MSBuild running an npm/yarn/pnpm install that failed (the command on the line after `error MSB3073:`).
  signature('msbuild-package-install-failed', 'Package Installation Error', 'msbuild', /^(?:.*error MSB3073: )?The command "(?:npm (?:ci|i|install)|yarn(?: install)?|pnpm (?:i|install))\b[^"]*" exited with code [1-9]\d*\./, 'The command "npm ci --prefer-offline --no-audit" exited with code 152.'),
  // MSVC's linker cannot find a symbol or a library the build links against.
  signature('msvc-link-unresolved', 'Dependency Issues', 'msvc-link', /: (?:fatal )?error LNK(?:2001|2019|1120|1181|1104): /, 'arrow.lib(tensor.cc.obj) : error LNK2019: unresolved external symbol __std_find_trivial_8 referenced in function f'),
  // The installed .NET SDK is older than the target framework the project asks for.
  signature('dotnet-sdk-too-old', 'Configuration Error', 'dotnet', /error NETSDK1045: The current \.NET SDK does not support targeting /, 'Error: /usr/share/dotnet/sdk/9.0.306/Sdks/Microsoft.NET.Sdk/targets/Microsoft.NET.TargetFrameworkInference.targets(166,5): error NETSDK1045: The current .NET SDK does not support targeting .NET 10.0.'),
  // setup-java given a version it cannot parse.
  signature('setup-java-invalid-version', 'Configuration Error', 'setup-java', /is not valid SemVer notation for a Java version/, "Error: The string '-457401206' is not valid SemVer notation for a Java version. Please check README file for code snippets and more detailed information"),
  // A command-line parser (clap) told that an option has no value: the invocation is misconfigured.
  signature('cli-option-value-missing', 'Configuration Error', 'clap', /^(?:\d+\.\d+ )?error: a value is required for '--?[\w-]+(?: <[^>]+>)?' but none was supplied/, "error: a value is required for '--target <TRIPLE>' but none was supplied"),
  // Codecov's uploader throttled by the service.
  signature('codecov-rate-limited', 'Environment Error', 'codecov', /error fetching the storage URL during POST: 429\b|Rate limit reached\. Please upload with the Codecov repository upload token/, "[2024-08-12T19:47:58.788Z] ['error'] There was an error running the uploader: Error uploading to https://codecov.io: Error: There was an error fetching the storage URL during POST: 429 - {'detail': 'Rate limit reached.'}", { yieldsTo: ERROR_TYPES }),
  // cspell's findings and its summary with issues.
  signature('cspell-unknown-word', 'Code Linting', 'cspell', /^(?:##\[error\]|Error: )?\S+:\d+:\d+ - Unknown word \(.+\)$|^CSpell: Files checked: \d+, Issues found: [1-9]\d* in \d+ files?/, '##[error]./.vscode/cspell.json:80:10 - Unknown word (adfs)'),
  // yamllint's standard format (`  line:col  error  message  (rule)`) behind a Jenkins clock (without one, the ESLint
  // problem rule already reads it as Code Linting).
  signature('yamllint-error-line', 'Code Linting', 'yamllint', /^(?:\d\d:\d\d:\d\d)?\s+\d+:\d+\s+error\s+\S.*\s\([a-z][a-z-]*\)$/, '17:23:08    3:17      error    truthy value should be one of [false, true]  (truthy)'),
  // MkDocs' warnings about a page's links (fatal under --strict); the run failed.
  signature('mkdocs-doc-link-warning', 'Doc/Docstring', 'mkdocs', /^WARNING\s+-\s+Doc file '[^']+' contains (?:a link|an absolute link|an unrecognized relative link|a link to)/, "WARNING -  Doc file 'pages/input_types/jinja.md' contains a link '../argocd/docs/README.md', but the target 'pages/argocd/docs/README.md' is not found among documentation files."),
  // LinkChecker's closing summary with errors.
  signature('linkchecker-errors', 'Doc/Docstring', 'linkchecker', /^That's it\. \d+ links? in \d+ URLs? checked\. \d+ warnings? found\. [1-9]\d* errors? found\./, "That's it. 5557 links in 5593 URLs checked. 39 warnings found. 10 errors found."),
  // Julia's Test summary table: its Fail and Error columns appear only when something failed.
  signature('julia-test-summary-failed', 'Test Failure', 'julia-test', /^Test Summary:\s+\|(?:\s+Pass)?\s+(?:Fail|Error)\b/, 'Test Summary: | Pass  Fail  Broken  Total'),
  // R loading a package that is not installed.
  signature('r-package-not-installed', 'Dependency Issues', 'R', /there is no package called [‘'][\w.]+[’']/, '    there is no package called ‘pak’'),
  // Bundler's lockfile lacks the runner's platform.
  signature('bundler-platform-missing', 'Dependency Issues', 'bundler', /^Your bundle only supports platforms \[/, 'Your bundle only supports platforms ["aarch64-linux-gnu"] but your local'),
  // Twisted trial's failed assertion.
  signature('trial-fail-test', 'Assertion Error', 'trial', /^twisted\.trial\.unittest\.FailTest: /, 'twisted.trial.unittest.FailTest: Success result expected on <Deferred>, found failure result instead:', { also: 'Test Failure' }),
  // Its second round: pip's own words without pip 10's `ERROR: ` prefix (old pip, pipenv relaying them), and pip
  // crashing inside its command runner.
  signature('pip-no-distribution-bare', 'Package Installation Error', 'pip', /^\s*(?:No matching distribution found for|No distributions at all found for|Could not find any downloads that satisfy the requirement) \S/, 'No matching distribution found for pytest-cov (from -r /tmp/requirements.txt (line 1))'),
  signature('pip-internal-crash', 'Package Installation Error', 'pip', /pip\/_internal\/cli\/base_command\.py", line \d+, in _main$/, '  File "/opt/hostedtoolcache/Python/3.7.10/x64/lib/python3.7/site-packages/pip/_internal/cli/base_command.py", line 180, in _main'),
  // Its third round: Kotlin 2's Compose compiler, which the build must now apply as a Gradle plugin.
  signature('compose-compiler-plugin-required', 'Configuration Error', 'gradle', /Starting in Kotlin 2\.0, the Compose Compiler Gradle plugin is required\b/, 'com.android.builder.errors.EvalIssueException: Starting in Kotlin 2.0, the Compose Compiler Gradle plugin is required when compose is enabled. See the following link for more information: https://d.android.com/r/studio-ui/compose-compiler'),
];
