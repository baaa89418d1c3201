import { fileLineFinding, type Rule } from './rule.js';
import { wholeFile } from './rule-helpers.js';

/**
 * Formatters and linters beyond Python, recognised by their output: Biome, stylua, rustfmt, gofmt wrappers,
 * dotnet format, Spotless, scalafmt, ktlint, RuboCop, PHP_CodeSniffer, shellcheck, markdownlint, yamllint,
 * clang-tidy, Android lint, golangci-lint, ESLint's limits and rustc's `-D warnings`.
 */
export const QUALITY_RULES: Rule[] = [
  // Formatters.
  {
    id: 'formatter-check-failed',
    type: 'Code Formatting',
    tool: 'formatter',
    linePattern: /Go files (?:that )?(?:require|need) formatting|files? (?:would be|were not|are not|is not|not) (?:properly )?(?:re)?formatted|files? must be formatted|Run '?mvn spotless:apply'? to fix|The following files had format violations|Formatter would have printed the following content|File content differs from formatting output|line formatted, but exceeded maximum width|^error (?:WHITESPACE|FINALNEWLINE|IMPORTS): |Checking formatting\.\.\.\s*(?:failed|Failed)|detected unformatted files|[Ss]ome files have not been formatted/,
    context: { after: 2 },
    example: { command: './scripts/check-format.sh', lines: ['The following Go files require formatting:', 'internal/service/a_test.go'] },
  },
  {
    id: 'gofmt-diff',
    type: 'Code Formatting',
    tool: 'gofmt',
    linePattern: /^diff -u (\S+\.go)\.orig \S+\.go$/,
    findingParser: wholeFile(1, 'gofmt would reformat this file'),
    example: { command: 'gofmt -d .', lines: ['diff -u main.go.orig main.go'] },
  },
  {
    id: 'stylua-diff',
    type: 'Code Formatting',
    tool: 'stylua',
    linePattern: /^Diff in (\S+\.lua):$/,
    findingParser: wholeFile(1, 'stylua would reformat this file'),
    example: { command: 'stylua --check .', lines: ['Diff in src/init.lua:'] },
  },
  {
    id: 'ktlint-violation',
    type: 'Code Linting',
    tool: 'ktlint',
    linePattern: /^(\S+\.kts?):(\d+):(\d+): (.*) \((?:standard|experimental):[\w-]+\)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: './gradlew ktlintCheck', lines: ['src/main/kotlin/App.kt:3:1: Unused import (standard:no-unused-imports)'] },
  },
  // Linters.
  {
    id: 'linter-summary',
    type: 'Code Linting',
    tool: 'linter',
    linePattern: /ESLint found too many warnings \(maximum: \d+\)|Lint found (?:\d+ )?(?:fatal )?errors|^\d+ files? inspected, [1-9]\d* offenses? detected|^Found [1-9]\d* (?:violations?|issues?) in \d+ files?|^(?:##\[error\])?issues found$|^(?!.*`-D rustdoc::).*implied by `-D warnings`|= note: `-D (?!rustdoc::)[\w:-]+` implied by|^Total: (?:[1-9]\d* warnings? \/ \d+|\d+ warnings? \/ [1-9]\d*) errors? in \d+ files?$|^Checking \S+\.lua\s+[1-9]\d* (?:warnings?|errors?)$/,
    example: { command: 'npm run lint', lines: ['ESLint found too many warnings (maximum: 0).'] },
  },
  {
    id: 'biome-lint',
    type: 'Code Linting',
    tool: 'biome',
    linePattern: /^(\S+):(\d+):(\d+) lint\/[\w/]+/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 0 }),
    example: { command: 'npx biome ci .', lines: ['src/a.ts:3:7 lint/suspicious/noExplicitAny ━━━━━━━━━━━━━━━━━━━━━━'] },
  },
  {
    id: 'clang-tidy',
    type: 'Code Linting',
    tool: 'clang-tidy',
    linePattern: /Run clang-tidy on \S+ failed|^\S+:\d+:\d+: (?:error|warning): .* \[(?:clang-analyzer|bugprone|readability|modernize|performance|cppcoreguidelines|misc|google|llvm|cert|hicpp|portability|concurrency)-[\w.-]+(?:,-warnings-as-errors)?\]$|\b\d{1,7} warnings? treated as errors?/,
    example: { command: 'clang-tidy src/*.cpp', lines: ['src/a.cpp:3:5: warning: use auto [modernize-use-auto,-warnings-as-errors]'] },
  },
  {
    id: 'shellcheck',
    type: 'Code Linting',
    tool: 'shellcheck',
    linePattern: /^In (\S+) line (\d+):$|^\S+:\d+:\d+: (?:error|warning|note|style): .* \[SC\d{4}\]$/,
    findingParser: (m) => (m[1] === undefined ? undefined : { path: m[1], line: Number(m[2]), message: 'shellcheck finding' }),
    example: { command: 'shellcheck scripts/*.sh', lines: ['In scripts/build.sh line 3:'] },
  },
  {
    id: 'markdown-yaml-lint',
    type: 'Code Linting',
    tool: 'markdownlint',
    linePattern: /^(\S+\.md):(\d+)(?::\d+)? (?:error )?(MD\d{3})\/[\w-/]+ |^\s+(\d+):(\d+)\s+error\s+.*\((?:document-start|line-length|trailing-spaces|indentation|truthy|comments|empty-lines|new-line-at-end-of-file|key-duplicates|brackets|colons|commas)\)$/,
    findingParser: (m) => (m[1] === undefined ? undefined : { path: m[1], line: Number(m[2]), message: m[3] ?? 'markdownlint' }),
    example: { command: 'npx markdownlint-cli2 "**/*.md"', lines: ['README.md:12 MD013/line-length Line length [Expected: 80; Actual: 120]'] },
  },
  {
    id: 'php-ruby-lint',
    type: 'Code Linting',
    tool: 'phpcs',
    linePattern: /^FOUND [1-9]\d* ERRORS? (?:AND \d+ WARNINGS? )?AFFECTING \d+ LINES?|^\S+\.rb:\d+:\d+: [CWEF]: [\w/]+: /,
    example: { command: 'vendor/bin/phpcs --standard=PSR12 src/', lines: ['FOUND 2 ERRORS AFFECTING 2 LINES'] },
  },
  {
    // `dotnet format --verify-no-changes` (`file.cs(871,14): error WHITESPACE: Fix whitespace formatting.`) and
    // `terraform fmt -check`, which exits 3 when a file is not formatted (setup-terraform's wrapper says so).
    id: 'dotnet-terraform-format',
    type: 'Code Formatting',
    tool: 'formatter',
    linePattern: /\(\d+,\d+\): error (?:WHITESPACE|FINALNEWLINE|ENDOFLINE|CHARSET|IMPORTS): |^\s*Error: Terraform exited with code 3\.$/,
    example: { command: 'dotnet format whitespace --verify-no-changes', lines: ["D:\\a\\s\\src\\Graph.cs(871,14): error WHITESPACE: Fix whitespace formatting. Insert '\\r\\n'. [D:\\a\\s\\src\\App.csproj]"] },
  },
  {
    // super-linter names the linter that failed; its formatters are Code Formatting (below).
    id: 'super-linter-formatter',
    type: 'Code Formatting',
    tool: 'super-linter',
    linePattern: /Found errors in \[\w*(?:PRETTIER|BLACK|ISORT|GOFMT|RUSTFMT|CLANG_FORMAT|SHFMT|GOOGLE_JAVA_FORMAT|KTLINT|SNAKEFMT|STYLUA)\w*\] linter!/,
    example: { command: 'github/super-linter@v5', lines: ['2023-01-02 10:00:00 [ERROR]   Found errors in [PYTHON_BLACK] linter!'] },
  },
  {
    id: 'super-linter',
    type: 'Code Linting',
    tool: 'super-linter',
    linePattern: /Found errors in \[\w+\] linter!/,
    example: { command: 'github/super-linter@v5', lines: ['2023-01-02 10:00:00 [ERROR]   Found errors in [ACTIONLINT] linter!'] },
  },
];
