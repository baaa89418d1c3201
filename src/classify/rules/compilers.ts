import { fileLineFinding, type Rule } from './rule.js';

/**
 * Compiler diagnostics that say which file and line, whoever ran the compiler: parse errors are Syntax Errors,
 * name and type errors are Type Checking (Kotlin, Swift, MSVC and clang on Windows, C#, Dart, Next.js).
 */
export const COMPILER_SYNTAX_RULES: Rule[] = [
  {
    // Bundlers and build scripts reporting a parse error of a source or build file: webpack's loaders, Create React
    // App, Groovy build files under Gradle.
    id: 'bundler-parse-error',
    type: 'Syntax Error',
    tool: 'bundler',
    linePattern: /Module build failed(?: \([^)]*\))?: SyntaxError: |^Syntax error: .*\(\d+:\d+\)$|^\s*(?:build file|script) '[^']+': \d+: (?:expecting|unexpected) /,
    context: { after: 2 },
    example: { command: 'npm run build', lines: ['Failed to compile.', '', './src/Containers/App.js', 'Syntax error: Unexpected token (1:13)'] },
  },
  {
    id: 'rust-syntax',
    type: 'Syntax Error',
    tool: 'rustc',
    linePattern: /^error(?:\[E07(?:58|62|63|65|66)\])?: (?:unexpected closing delimiter|this file contains an unclosed delimiter|mismatched closing delimiter|unterminated (?:double quote string|character literal|block comment|raw string)|expected one of .* found|expected (?:expression|item|identifier|pattern|type), found)/,
    context: { after: 1 },
    example: { command: 'cargo build', lines: ['error: this file contains an unclosed delimiter'] },
  },
  {
    id: 'go-parse-error',
    type: 'Syntax Error',
    tool: 'go',
    linePattern: /^(?:##\[error\])?(\S+\.go):(\d+):(\d+): (syntax error: .*|expected (?:operand|'[^']+'|declaration|statement).*|missing ',' (?:before newline )?in (?:composite literal|argument list).*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'gofmt -l .', lines: ["internal/a_test.go:59:12: missing ',' in composite literal"] },
  },
  {
    id: 'eslint-parsing-error',
    type: 'Syntax Error',
    tool: 'eslint',
    linePattern: /^\s+(\d+):(\d+)\s+error\s+Parsing error: (.*)$/,
    findingParser: (m, state) =>
      state.header === undefined ? undefined : { path: state.header.path, line: Number(m[1]), column: Number(m[2]), message: `Parsing error: ${m[3] ?? ''}` },
    headerPattern: /^(\/\S+|[\w./-]+\.(?:[cm]?[jt]sx?|vue|svelte))$/,
    example: { command: 'npm run lint', lines: ['/w/src/a.js', '  20:3  error  Parsing error: Missing catch or finally clause'] },
  },
  {
    id: 'kotlin-syntax',
    type: 'Syntax Error',
    tool: 'kotlinc',
    linePattern: /^e: (?:file:\/\/)?(\S+\.kts?):(\d+):(\d+):? ((?:Syntax error: )?(?:Expecting .*|Unexpected tokens.*|Unclosed comment.*|Missing '.*))$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: './gradlew assembleDebug', lines: ["e: file:///w/app/src/Main.kt:10:5 Expecting ')'"] },
  },
  {
    id: 'msvc-syntax',
    type: 'Syntax Error',
    tool: 'msvc',
    linePattern: /^(\S.*?\.(?:c|cc|cpp|cxx|h|hpp))\((\d+)(?:,\d+)?\): error (C2059|C2143|C2146|C2061|C1075): (.*?)(?: \[\S+\])?$/,
    findingParser: fileLineFinding({ path: 1, line: 2, code: 3, message: 4 }),
    example: { command: 'msbuild app.sln', lines: ["D:\\a\\app\\src\\main.cpp(4,1): error C2143: syntax error: missing ';' before '}'"] },
  },
  {
    id: 'csharp-syntax',
    type: 'Syntax Error',
    tool: 'csc',
    linePattern: /^(?:\+ \S+ \(\d+\): )?(\S.*?\.cs)\((\d+),(\d+)\): [Ee]rror (CS10(?:0[1-9]|1\d|2[0-8]|3[1-9]|4[0134]|5[56])|CS1073|CS151[3-9]|CS152\d): (.*?)(?: \[\S+\])?$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'dotnet build', lines: ['/w/src/App.cs(12,5): error CS1002: ; expected [/w/src/App.csproj]'] },
  },
  {
    // `php -l` and the interpreter: `PHP Parse error:  syntax error, unexpected …` (two spaces on the CLI's stderr).
    id: 'php-parse-error',
    type: 'Syntax Error',
    tool: 'php',
    linePattern: /^(?:PHP )?Parse error:\s+(syntax error, .*?) in (\S+\.php) on line (\d+)/,
    findingParser: (m) => (m[1] === undefined || m[2] === undefined ? undefined : { path: m[2], line: Number(m[3]), message: m[1] }),
    example: { command: 'find . -name "*.php" -exec php -l {} \\;', lines: ["PHP Parse error:  syntax error, unexpected '}' in ./src/a.php on line 12"] },
  },
  {
    // bash and sh parsing a script (a `run:` step, an action's entrypoint): the step exits 2.
    id: 'shell-syntax-error',
    type: 'Syntax Error',
    tool: 'shell',
    linePattern: /^\s*(\S+): line (\d+): (syntax error(?: near unexpected token .*|: unexpected end of file.*))$|^(?:\S+: )?\d+: (?:\S+: )?Syntax error: .+ unexpected/,
    findingParser: (m) => (m[1] === undefined || m[3] === undefined ? undefined : { path: m[1], line: Number(m[2]), message: m[3] }),
    example: { command: './scripts/release.sh', lines: ["/home/runner/work/_temp/28b6.sh: line 3: syntax error near unexpected token `('"] },
  },
  {
    // Ruby's YAML parser (Jekyll, GitHub Pages) on a data file.
    id: 'yaml-data-syntax',
    type: 'Syntax Error',
    tool: 'jekyll',
    linePattern: /Psych::SyntaxError|^There was a YAML syntax error on line \d+/,
    example: { command: 'bundle exec jekyll build', lines: ['  Liquid Exception: (/w/_data/authors.yml): did not find expected key while parsing a block mapping (Psych::SyntaxError)'] },
  },
  {
    id: 'solidity-parser-error',
    type: 'Syntax Error',
    tool: 'solc',
    linePattern: /^ParserError(?: \(\d{4}\))?: (.*)$/,
    example: { command: 'forge build', lines: ["ParserError (2314): Expected ';' but got '}'"] },
  },
];

/** swiftc's type and name errors (the message after `error: `), as a pattern source shared by its two output forms. */
const SWIFT_TYPE_MESSAGE = String.raw`((?:cannot|value of type|no such module|use of unresolved|type '|missing argument|extra argument|incorrect argument|'[^']+' (?:cannot|is not|has no)|generic parameter|ambiguous|instance member|static member|no exact matches|argument type|(?:main |global )?actor-isolated |non-sendable |sending '[^']+' risks causing data races|the compiler is unable to type-check this expression).*)`;

/** Name and type errors; after the toolchain rules of ecosystems.ts, which win the lines their commands print. */
export const COMPILER_TYPE_RULES: Rule[] = [
  {
    id: 'kotlin-compile-error',
    type: 'Type Checking',
    tool: 'kotlinc',
    linePattern: /^e: (?:file:\/\/)?(\S+\.kts?):\s?\(?(\d+)(?::|, )(\d+)\)?:? (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: './gradlew assembleDebug', lines: ['e: file:///w/app/src/MainActivity.kt:10:24 Unresolved reference: R'] },
  },
  {
    id: 'swift-compile-error',
    type: 'Type Checking',
    tool: 'swiftc',
    // xcodebuild and swiftc (`path:l:c: error: message`); SwiftPM's swiftbuild puts `error: ` first.
    linePattern: new RegExp(`^(?:❌\\s+|error: )?(\\S+\\.swift):(\\d+):(\\d+):? (?:error: )?${SWIFT_TYPE_MESSAGE}$`),
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'xcodebuild build', lines: ["/w/App/Service.swift:57:24: error: cannot infer contextual base in reference to member 'shared'"] },
  },
  {
    // xcbeautify's and xcpretty's GitHub Actions renderers print swiftc's errors as workflow commands; behind
    // fastlane's prefix (stripped as a task prefix) the runner does not turn them into annotations.
    id: 'swift-compile-error-annotation',
    type: 'Type Checking',
    tool: 'swiftc',
    linePattern: new RegExp(`^::error file=(\\S+\\.swift),line=(\\d+)(?:,col=(\\d+))?::${SWIFT_TYPE_MESSAGE}$`),
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'fastlane mac build_release', lines: ["::error file=/w/App/ChatTabViewModel.swift,line=344,col=68::missing argument for parameter 'projectRoot' in call"] },
  },
  {
    id: 'msvc-error',
    type: 'Type Checking',
    tool: 'msvc',
    linePattern: /^(\S.*?\.(?:c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|h\+\+))\((\d+)(?:,(\d+))?\): (?:fatal )?error:? (?:(C\d{4}): )?(.*?)(?: \[\S+\])?$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'cmake --build build --config Release', lines: ["D:\\a\\app\\src\\core\\Scene.h(154): error C2039: 'each': is not a member of 'registry'"] },
  },
  {
    id: 'csharp-error',
    type: 'Type Checking',
    tool: 'csc',
    // Azure DevOps's summary writes `+ File.cs (59): path(59,12): Error CS0246`.
    linePattern: /^(?:\+ \S+ \(\d+\): )?(\S.*?\.cs)\((\d+),(\d+)\): [Ee]rror (CS\d{4}): (.*?)(?: \[\S+\])?$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'dotnet build', lines: ["/w/src/App.xaml.cs(19,31): error CS0246: The type or namespace name 'Foo' could not be found"] },
  },
  {
    id: 'dart-analyzer-error',
    type: 'Type Checking',
    tool: 'dart',
    // `dart analyze` (`error - path:l:c - message - code`), `flutter analyze` (`error • message • path:l:c • code`).
    linePattern: /^\s*(?:\[[\w-]+\]:\s+)?error - (\S+\.dart):(\d+):(\d+) - (.*)$|^\s*(?:\[[\w-]+\]:\s+)?error \u2022 (.*?) \u2022 (\S+\.dart):(\d+):(\d+) \u2022 [\w_]+$/,
    findingParser: (m) => (m[1] !== undefined ? fileLineFinding({ path: 1, line: 2, column: 3, message: 4 })(m) : fileLineFinding({ path: 6, line: 7, column: 8, message: 5 })(m)),
    example: { command: 'dart analyze', lines: ["  error - lib/src/a.dart:26:20 - Undefined name 'Random'. - undefined_identifier"] },
  },
  {
    // The compiler front end (`path:l:c: Error: message`, flutter build, dart compile): it reports what a parse error
    // leaves behind (`Couldn't find constructor`, `Can't assign to this.`) under it, and those are not type errors.
    id: 'dart-cfe-error',
    type: 'Type Checking',
    tool: 'dart',
    linePattern: /^(\S+\.dart):(\d+):(\d+): Error: (.*)$/,
    yieldsTo: ['Syntax Error'],
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'flutter build apk', lines: ["lib/main.dart:12:5: Error: The getter 'x' isn't defined for the class 'A'."] },
  },
  {
    id: 'nextjs-type-error',
    type: 'Type Checking',
    tool: 'tsc',
    linePattern: /^Type error: (.*)$/,
    context: { before: 1, after: 2 },
    example: { command: 'npm run build', lines: ['Failed to compile.', "Type error: Property 'status' does not exist on type '{}'."] },
  },
  {
    id: 'scala-compile-error',
    type: 'Type Checking',
    tool: 'scalac',
    // Scala 2 (`[error] path:l:c: message`) and Scala 3's headers (`[error] -- [E007] Type Mismatch Error: path:l:c`).
    linePattern: /^\[error\] (?:-- \[E\d+\] [\w ]+ Error: )?(\S+\.scala):(\d+):(\d+):? (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'sbt test', lines: ['[error] /w/src/main/scala/App.scala:12:5: type mismatch;'] },
  },
  {
    id: 'svelte-vue-check',
    type: 'Type Checking',
    tool: 'svelte-check',
    linePattern: /^svelte-check found [1-9]\d{0,6} errors?|^(?:Error|error) in \S+\.(?:svelte|vue):\d+:\d+/,
    example: { command: 'npm run check', lines: ['svelte-check found 2 errors and 0 warnings in 1 file'] },
  },
  {
    id: 'clang-windows-error',
    type: 'Type Checking',
    tool: 'clang',
    linePattern: /^(\S+\.(?:c|cc|cpp|cxx|h|hpp|m|mm)):(\d+):(\d+): (?:fatal )?error: ((?!expected ).*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: './scripts/build.sh', lines: ["/w/src/a.cpp:531:15: error: redefinition of 'GetStats'"] },
  },
  {
    // solc (forge, hardhat, truffle): `TypeError (9574): …`, `Error (3656): …`; its parse errors are `ParserError`.
    id: 'solidity-compile-error',
    type: 'Type Checking',
    tool: 'solc',
    linePattern: /^(?:Error|TypeError|DeclarationError) \(\d{4}\): (.*)$/,
    example: { command: 'forge build', lines: ['Error (3656): Contract "Vault" should be marked as abstract.'] },
  },
];
