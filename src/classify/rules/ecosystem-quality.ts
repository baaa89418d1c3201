import { CMD } from './commands.js';
import { fileLineFinding, type Rule } from './rule.js';

/** Node, Go, Rust, Java and C toolchains: linters, formatters and compiler errors. */
export const ECOSYSTEM_QUALITY_RULES: Rule[] = [
  {
    // `next build` / `next lint` print ESLint's errors as `line:col  Error: message  rule` under the file.
    id: 'next-lint-error',
    type: 'Code Linting',
    tool: 'eslint',
    linePattern: /^(\d+):(\d+)\s{2}Error: (.{1,500}?)\s{2,8}(@?[\w-]+(?:\/[\w-]+)*)$/,
    findingParser: (m, state) =>
      state.header === undefined ? undefined : { path: state.header.path, line: Number(m[1]), column: Number(m[2]), message: `${m[3] ?? ''} (${m[4] ?? ''})` },
    headerPattern: /^(\.\/\S+\.(?:[cm]?[jt]sx?|vue|svelte))$/,
    example: { command: 'npm run build', lines: ['./components/Carousel.tsx', "11:34  Error: `'` can be escaped with `&apos;`, `&lsquo;`, `&#39;`, `&rsquo;`.  react/no-unescaped-entities"] },
  },
  {
    id: 'eslint-problem',
    type: 'Code Linting',
    tool: 'eslint',
    commandPattern: CMD.eslint,
    linePattern: /^\s+(\d+):(\d+)\s+(error|warning)\s+(.*?)\s{2,}(\S+)$/,
    headerPattern: /^(\/\S+|[\w./-]+\.(?:[cm]?[jt]sx?|vue|svelte))$/,
    findingParser: (m, state) =>
      state.header === undefined
        ? undefined
        : { path: state.header.path, line: Number(m[1]), column: Number(m[2]), message: `${m[4] ?? ''} (${m[5] ?? ''})`, level: m[3] === 'warning' ? 'warning' : 'failure' },
    example: { command: 'npx eslint .', lines: ['/w/src/a.js', "  1:7  error  'unused' is assigned a value but never used  no-unused-vars"] },
  },
  {
    id: 'eslint-summary',
    type: 'Code Linting',
    tool: 'eslint',
    // The count includes parsing errors: when a parsing error explains the step, the summary proves no lint finding.
    yieldsTo: ['Syntax Error'],
    // pnpm -r and turbo prefix each line with the package; consoles saved in a legacy code page print ✖ as Γ£û.
    linePattern: /^(?:[\w@./-]+ [\w:-]+: |[\w@./-]+:[\w:-]+: )?(?:✖|Γ£û) \d+ problems? \([1-9]\d* errors?/,
    example: { command: 'npm run lint', lines: ['✖ 1 problem (1 error, 0 warnings)'] },
  },
  {
    id: 'prettier-check',
    type: 'Code Formatting',
    tool: 'prettier',
    linePattern: /^\s*\[warn\] Code style issues found|^Code style issues found in/,
    example: { command: 'npx prettier --check .', lines: ['[warn] Code style issues found in the above file. Run Prettier with --write to fix.'] },
  },
  {
    id: 'golangci-lint-issue',
    type: 'Code Linting',
    tool: 'golangci-lint',
    commandPattern: CMD.golangci,
    linePattern: /^(\S+?\.go):(\d+):(\d+): (.*) \((\w+)\)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'golangci-lint run', lines: ['main.go:8:10: Error return value of `f.Close` is not checked (errcheck)'] },
  },
  {
    id: 'go-vet-issue',
    type: 'Code Linting',
    tool: 'go-vet',
    commandPattern: CMD.goVet,
    // Compile errors go vet reports (undefined, cannot use, ...) are left to go-compile-error.
    linePattern: /^(?:##\[error\])?(?:vet: )?(\.?\/?\S+?\.go):(\d+):(\d+): ((?!undefined:|cannot use |too many arguments|not enough arguments|missing return|invalid operation|\S+ redeclared|declared and not used|"[^"]+" imported and not used|\S+ \(type .*\) has no field or method|mismatched types|cannot convert|syntax error|expected |missing ',').*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'go vet ./...', lines: ['./main.go:8:2: fmt.Printf format %d has arg s of wrong type string'] },
  },
  {
    id: 'gofmt-file',
    type: 'Code Formatting',
    tool: 'gofmt',
    commandPattern: CMD.gofmt,
    linePattern: /^(\S+\.go)$/,
    findingParser: (m) => (m[1] === undefined ? undefined : { path: m[1], line: 1, message: 'gofmt would reformat this file' }),
    example: { command: 'test -z "$(gofmt -l .)" || (gofmt -l . && exit 1)', lines: ['main.go'] },
  },
  {
    id: 'rustfmt-diff',
    type: 'Code Formatting',
    tool: 'rustfmt',
    linePattern: /^Diff in (\S+?)(?: at line |:)(\d+):?$/,
    findingParser: fileLineFinding({ path: 1, line: 2, message: 0 }),
    example: { command: 'cargo fmt --check', lines: ['Diff in /w/src/main.rs at line 1:'] },
  },
  {
    id: 'clippy-lint',
    type: 'Code Linting',
    tool: 'clippy',
    commandPattern: CMD.clippy,
    linePattern: /rust-clippy\/master\/index\.html#|= note: `-D clippy::|#\[deny\(clippy::/,
    context: { before: 4 },
    example: { command: 'cargo clippy -- -D warnings', lines: ['   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#needless_return'] },
  },
  {
    id: 'clang-format-violation',
    type: 'Code Formatting',
    tool: 'clang-format',
    linePattern: /^(\S+?):(\d+):(\d+): (?:error|warning): code should be clang-formatted/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 0 }),
    example: { command: 'clang-format --dry-run -Werror src/a.c', lines: ['src/a.c:3:10: error: code should be clang-formatted [-Wclang-format-violations]'] },
  },
  // Compilers.
  {
    id: 'rustc-error',
    type: 'Type Checking',
    tool: 'rustc',
    commandPattern: CMD.cargo,
    linePattern: /^error\[E\d{4}\]: (.*)$/,
    context: { after: 1 },
    example: { command: 'cargo build', lines: ['error[E0308]: mismatched types'] },
  },
  {
    id: 'javac-error',
    type: 'Type Checking',
    tool: 'javac',
    commandPattern: CMD.java,
    // Gradle repeats the compiler's errors indented under `* What went wrong:`.
    linePattern: /^(?:\[ERROR\] |Error: +|\s+)?(\S+?\.java):(?:\[(\d+),(\d+)\]|(\d+):) (?:error: )?(.*)$/,
    findingParser: (m) => {
      const path = m[1];
      const line = Number(m[2] ?? m[4]);
      return path === undefined ? undefined : { path, line, ...(m[3] === undefined ? {} : { column: Number(m[3]) }), message: (m[5] ?? '').trim() };
    },
    example: { command: 'mvn -B compile', lines: ['[ERROR] /w/src/main/java/App.java:[5,9] cannot find symbol'] },
  },
  {
    // PHPStan's closing line (Symfony's console style) under its table of `Line  path.php` errors.
    id: 'phpstan-errors',
    type: 'Type Checking',
    tool: 'phpstan',
    commandPattern: /\bphpstan\b/,
    linePattern: /^\s*\[ERROR\] Found \d+ errors?\s*$/,
    context: { before: 3 },
    example: { command: 'vendor/bin/phpstan analyse --level=5 src', lines: [' [ERROR] Found 3 errors'] },
  },
  {
    id: 'go-compile-error',
    type: 'Type Checking',
    tool: 'go',
    commandPattern: CMD.go,
    linePattern: /^(?:##\[error\])?(?:vet: )?(\.?\/?\S+?\.go):(\d+):(\d+): (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'go build ./...', lines: ['./main.go:5:2: undefined: foo'] },
  },
  {
    id: 'gcc-syntax',
    type: 'Syntax Error',
    tool: 'gcc',
    commandPattern: CMD.gcc,
    linePattern: /^(\S+?\.(?:c|cc|cpp|cxx|h|hpp)):(\d+):(\d+): error: (expected .*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'make', lines: ["src/a.c:3:12: error: expected ';' before 'return'"] },
  },
  {
    id: 'gcc-error',
    type: 'Type Checking',
    tool: 'gcc',
    commandPattern: CMD.gcc,
    linePattern: /^(\S+?\.(?:c|cc|cpp|cxx|h|hpp)):(\d+):(\d+): error: (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'make', lines: ["src/a.c:4:12: error: incompatible types when returning type 'char *' but 'int' was expected"] },
  },
  {
    // chart-testing (`ct lint`): yamllint and helm lint findings on charts.
    id: 'chart-testing-lint',
    type: 'Code Linting',
    tool: 'ct',
    linePattern: /^(?:Error: )?Error linting charts: /,
    example: { command: 'ct lint --target-branch main', lines: [" ✖︎ chart-1 => (version: \"0.0.0\", path: \"charts/chart-1\") > Chart doesn't have maintainers", 'Error: Error linting charts: Error processing charts'] },
  },
];
