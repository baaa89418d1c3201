import { sourced } from './sourced.js';

/** Parse errors as compilers, interpreters and config parsers print them; each message as its tool's source (or documentation) words it, which the comment names. */
export const SOURCED_SYNTAX_RULES = [
  // esbuild: evanw/esbuild:internal/js_parser/js_parser.go & internal/js_lexer/js_lexer.go ("Expected %s but found %s", "Unterminated string literal", "Unexpected end of file"); internal/logger/logger.go ('✘ [ERROR]'); Vite's 'Transform failed' prints 'file:l:c: ERROR: ...'
  sourced('esbuild-parse-error', 'Syntax Error', "esbuild", /^(?:✘ \[ERROR\]|X \[ERROR\]|\S+:\d+:\d+: ERROR:) (?:Expected .+ but found |Unexpected \"|Unterminated (?:string literal|template literal|regular expression)|Unexpected end of file|The character \"[^\"]+\" is not valid inside a JSX element|Unexpected closing \"[^\"]+\" tag does not match opening)/, "✘ [ERROR] Expected \";\" but found \"}\""),
  // swc: swc-project/swc:crates/swc_ecma_parser/src/error.rs (SyntaxError::msg: "Expected {}, got {}", "Expected ';', '}' or <eof>", "Unterminated string constant", "Expression expected", "Unexpected eof"), rendered by miette with '×'
  sourced('swc-parse-error', 'Syntax Error', "swc", /^\s*[×x] (?:Expected .+, got |Expected ';', '}' or <eof>|Unexpected token `|Unterminated (?:string constant|regexp literal|template)|Expression expected|Unexpected eof)/, "  × Expected ';', '}' or <eof>"),
  // rustc: rust-lang/rust:compiler/rustc_parse/src/parser/diagnostics.rs (expected_one_of_not_found: 'expected `{}`, found {}')
  sourced('rust-expected-token', 'Syntax Error', "rustc", /^error: expected `[^`]+`, found /, "error: expected `;`, found `}`"),
  // gcc: gcc-mirror/gcc:libcpp/lex.cc ('missing terminating %c character', 'unterminated comment'), gcc/c-family/c-lex.cc ('stray %qs in program'), gcc/c/c-parser.cc ('expected declaration or statement at end of input')
  sourced('c-lexer-syntax', 'Syntax Error', "gcc", /^\S+\.(?:c|cc|cpp|cxx|h|hpp|m|mm):\d+:\d+: error: (?:expected .+|missing terminating ['\"] character|stray '\S+' in program|unterminated comment|expected declaration or statement at end of input|extra tokens at end of #\w+ directive)$/, "src/a.c:2:9: error: missing terminating \" character"),
  // msvc: https://learn.microsoft.com/cpp/error-messages/compiler-errors-1/fatal-error-c1004 (C1004 unexpected end-of-file found; C2001 newline in constant; C2018 unknown character; C2046 illegal case; C2047 illegal default)
  sourced('msvc-syntax-more-codes', 'Syntax Error', "msvc", /^\S.*?\.(?:c|cc|cpp|cxx|h|hpp)\(\d+(?:,\d+)?\): (?:fatal )?error (?:C1004|C2001|C2014|C2017|C2018|C2046|C2047|C2181): /, "D:\\a\\app\\src\\a.cpp(20): fatal error C1004: unexpected end-of-file found"),
  // ruby: ruby/ruby:parse.y ('syntax error, unexpected %s'), prism_compile.c (Ruby 3.3+/prism: '%s:%d: syntax errors found')
  sourced('ruby-syntax-error', 'Syntax Error', "ruby", /^(?:\S+\.rb|-e|\S+\.gemspec|Gemfile|Rakefile):\d+: syntax error(?:s found|, unexpected )/, "/w/lib/app.rb:3: syntax error, unexpected end-of-input, expecting `end'"),
  // php: php/php-src:Zend/zend_language_scanner.l ('Unclosed '%c'', 'Unmatched '%c'', 'Unterminated comment starting line %d'); sapi/cli/php_cli.c ('Errors parsing %s')
  sourced('php-parse-error-unclosed', 'Syntax Error', "php", /^(?:PHP )?Parse error:\s+(?:Unclosed '.'(?: on line \d+)?|Unmatched '.'|Unterminated comment starting line \d+) in \S+ on line \d+|^Errors parsing \S+\.php$/, "PHP Parse error:  Unclosed '{' on line 3 in /w/src/a.php on line 20"),
  // swiftc: swiftlang/swift:include/swift/AST/DiagnosticsParse.def (expected_rbrace_in_brace_stmt, statement_same_line_without_semi, lex_unterminated_string, extra_rbrace)
  sourced('swift-parse-error', 'Syntax Error', "swiftc", /^\S+\.swift:\d+:\d+: error: (?:expected .+|consecutive statements on a line must be separated by ';'|unterminated string literal|extraneous '}' at top level|unexpected ',' separator|unterminated '\/\*' comment)$/, "/w/Sources/App/main.swift:3:14: error: expected '}' at end of brace statement"),
  // dart: dart-lang/sdk:pkg/front_end/messages.yaml (ExpectedAfterButGot 'Expected '#string' after this.', UnexpectedToken, UnmatchedToken "Can't find '#string' to match '#lexeme'.")
  sourced('dart-cfe-syntax', 'Syntax Error', "dart", /^\S+\.dart:\d+:\d+: Error: (?:Expected .+|Unexpected token '.+'\.|Can't find '[)}\]]' to match '[({\[]'\.|String starting with .+ must end with .+\.|Expected an identifier, but got .+\.)$/, "lib/main.dart:3:14: Error: Expected ';' after this."),
  // elixir: elixir-lang/elixir:lib/elixir/lib/exception.ex (SyntaxError, TokenMissingError, MismatchedDelimiterError) printed as '** (Kind) message' by the CLI
  sourced('elixir-syntax-error', 'Syntax Error', "elixir", /^\*\* \((?:SyntaxError|TokenMissingError|MismatchedDelimiterError)\) /, "** (SyntaxError) lib/app.ex:3:5: syntax error before: ')'"),
  // pytest: pytest-dev/pytest:src/_pytest/config/__init__.py (ConftestImportFailure: pytest 6+ prints 'SyntaxError: … (from <path>)', older ones the repr '(<path>, (<class 'SyntaxError'>, …))'): a conftest.py that does not parse
  sourced('pytest-conftest-syntax', 'Syntax Error', "pytest", /ConftestImportFailure: (?:(?:SyntaxError|IndentationError|TabError): |.*\(<class '(?:SyntaxError|IndentationError|TabError)'>)/, "E   _pytest.config.ConftestImportFailure: (local('/w/tests/conftest.py'), (<class 'SyntaxError'>, SyntaxError('invalid syntax', ('/w/tests/conftest.py', 3, 5, 'def f(:\\n'))))"),
  // perl: Perl/perl5:toke.c / perl.c (yyerror 'syntax error at %s line %d, near "%s"'; 'Execution of %s aborted due to compilation errors.')
  sourced('perl-syntax-error', 'Syntax Error', "perl", /^syntax error at \S+ line \d+, (?:near|at) |^Execution of \S+ aborted due to compilation errors\.$/, "syntax error at script/build.pl line 3, near \"}\""),
  // scalac: scala/scala:src/compiler/scala/tools/nsc/ast/parser/Parsers.scala ("'%s' expected but %s found.", 'illegal start of simple expression'); scala/scala3 reporting/messages.scala ('Syntax Error' kind, E0xx)
  sourced('scala-syntax-error', 'Syntax Error', "scalac", /^\[error\] (?:-- \[E\d+\] Syntax Error: |\S+\.scala:\d+:\d+: (?:'[^']+' expected but .+ found\.?|illegal start of (?:simple expression|definition|statement)|unclosed (?:string|character) literal|expected class or object definition)$)/, "[error] /w/src/main/scala/App.scala:3:5: ';' expected but '}' found."),
  // postcss: postcss/postcss:lib/css-syntax-error.js (name = 'CssSyntaxError')
  sourced('postcss-css-syntax-error', 'Syntax Error', "postcss", /^\s*CssSyntaxError: /, "CssSyntaxError: /w/src/a.css:3:5: Unclosed block"),
  // yamllint: adrienverge/yamllint:yamllint/linter.py (get_syntax_error: LintProblem(..., 'syntax error: ' + problem, rule 'syntax'))
  sourced('yamllint-syntax', 'Syntax Error', "yamllint", /^\s+\d+:\d+\s+error\s+syntax error: .* \(syntax\)$/, "  3:1       error    syntax error: found character '\\t' that cannot start any token (syntax)"),
  // zsh: zsh-users/zsh:Src/parse.c (yyerror: 'parse error near `%l'')
  sourced('zsh-parse-error', 'Syntax Error', "zsh", /^(?:\S+:)?zsh:\d+: parse error near |^zsh: parse error near /, "zsh:1: parse error near `}'"),
  // ghc: ghc/ghc:compiler/GHC/Parser/Errors/Ppr.hs (PsErrParse 'parse error on input', GHC-58481; 'parse error (possibly incorrect indentation or mismatched brackets)')
  sourced('haskell-parse-error', 'Syntax Error', "ghc", /^\s*parse error (?:on input [‘'`]|\(possibly incorrect indentation or mismatched brackets\))|^\S+\.hs:\d+:\d+: error:(?: \[GHC-58481\])? parse error /, "    parse error on input ‘}’"),
  // lua: lua/lua:lparser.c ('%s expected near %s', 'unexpected symbol'), llex.c ('unfinished string', 'malformed number')
  sourced('lua-syntax-error', 'Syntax Error', "lua", /^(?:lua\S*|luac\S*): \S+:\d+: (?:'.+' expected(?: \(to close '.+' at line \d+\))? near |unexpected symbol near |unfinished string near |malformed number near )/, "lua: a.lua:3: '=' expected near 'x'"),
  // buildkit: moby/buildkit:frontend/dockerfile/parser/parser.go & instructions/parse.go ('dockerfile parse error on line %d: %v', 'unknown instruction: %s')
  sourced('dockerfile-parse-error', 'Syntax Error', "buildkit", /dockerfile parse error on line \d+: /, "ERROR: failed to solve: dockerfile parse error on line 5: unknown instruction: RUNN"),
  // terraform: hashicorp/hcl:hclsyntax/parser.go (diagnostic summaries 'Argument or block definition required', 'Unclosed configuration block', 'Invalid block definition', 'Missing newline after argument', 'Missing item separator')
  sourced('hcl-syntax-error', 'Syntax Error', "terraform", /^(?:│ )?Error: (?:Argument or block definition required|Invalid block definition|Unclosed configuration block|Missing newline after argument|Unterminated template string|Invalid multi-line string|Missing item separator)$/, "│ Error: Unclosed configuration block"),
  // jq: jqlang/jq:src/parser.y (yyerror 'syntax error, unexpected ...', '(Unix shell quoting issues?)'), src/main.c ('jq: %d compile error%s')
  sourced('jq-program-syntax', 'Syntax Error', "jq", /^jq: error: syntax error, unexpected |^jq: \d+ compile errors?$/, "jq: error: syntax error, unexpected INVALID_CHARACTER (Unix shell quoting issues?) at <top-level>, line 1:"),
  // fsc: dotnet/fsharp:src/Compiler/FSComp.txt & ParseHelpers (FS0010 'Unexpected symbol ... in ...')
  sourced('fsharp-syntax', 'Syntax Error', "fsc", /^\S.*?\.fsx?\(\d+,\d+(?:,\d+,\d+)?\): error FS0010: /, "/w/src/Lib.fs(3,5): error FS0010: Unexpected symbol ')' in expression [/w/src/Lib.fsproj]"),
  // vue: vuejs/core:packages/compiler-sfc/src/compileScript.ts (babel parse errors re-thrown with the '[vue/compiler-sfc] ' prefix)
  sourced('vue-sfc-parse-error', 'Syntax Error', "vue", /\[vue\/compiler-sfc\] (?:Unexpected token|Unterminated|Missing semicolon|Unexpected keyword|Identifier '[^']+' has already been declared)/, "[plugin:vite:vue] [vue/compiler-sfc] Unexpected token (3:4)"),
  // make: mirror/make:src/read.c ('missing separator', 'missing separator (did you mean TAB instead of 8 spaces?)', 'recipe commences before first target', "missing 'endif'"), src/expand.c ('unterminated variable reference')
  sourced('makefile-syntax', 'Syntax Error', "make", /^\S+:\d+: \*\*\* (?:missing separator(?: \(did you mean TAB instead of 8 spaces\?\))?|recipe commences before first target|unterminated variable reference|missing 'endif'|extraneous 'endif')\.\s+Stop\.$/, "Makefile:12: *** missing separator.  Stop."),
  // cmake: Kitware/CMake:Source/cmListFileCache.cxx ('Parse error.  Expected a command name, got ', 'Parse error.  Function missing ending ")"')
  sourced('cmake-parse-error', 'Syntax Error', "cmake", /^\s*Parse error\.\s+(?:Expected a command name, got|Function missing ending \"\)\"|Expected \"\(\", got)/, "  Parse error.  Expected a command name, got unquoted argument with text \"foo\"."),
  // bash: bminor/bash:parse.y (parser_error 'unexpected EOF while looking for matching `%c'')
  sourced('bash-unexpected-eof', 'Syntax Error', "bash", /^\S+: line \d+: unexpected EOF while looking for matching [`'\"]/, "/home/runner/work/_temp/a.sh: line 5: unexpected EOF while looking for matching `\"'"),
  // protoc: protocolbuffers/protobuf:src/google/protobuf/compiler/parser.cc ('Expected ";".', 'Expected top-level statement (e.g. "message").'), io/tokenizer.cc
  sourced('protobuf-parse-error', 'Syntax Error', "protoc", /^\S+\.proto:\d+:\d+: (?:Expected .+\.|Expected top-level statement \(e\.g\. \"message\"\)\.|Unexpected end of stream while parsing|Invalid escape sequence in string literal\.)$/, "proto/api.proto:3:5: Expected \";\"."),
  // graphql: graphql/graphql-js:src/error/syntaxError.ts (`Syntax Error: ${description}`), src/language/parser.ts ('Expected ${kind}, found ${token}.')
  sourced('graphql-syntax-error', 'Syntax Error', "graphql", /Syntax Error: (?:Expected .+, found |Unexpected |Unterminated string\.|Invalid number)/, "GraphQLError: Syntax Error: Expected Name, found <EOF>."),
  // ansible: ansible/ansible:lib/ansible/errors/yaml_strings.py / parsing/utils/yaml.py ('Syntax Error while loading YAML.')
  sourced('ansible-yaml-syntax', 'Syntax Error', "ansible", /^ERROR! Syntax Error while loading YAML\.|^ERROR: Syntax Error while loading YAML script/, "ERROR! Syntax Error while loading YAML."),
  // erlc: erlang/otp:lib/stdlib/src/erl_parse.yrl (return_error 'syntax error before: ')
  sourced('erlang-syntax-error', 'Syntax Error', "erlc", /^\S+\.[eh]rl:\d+:(?:\d+:)? syntax error before: /, "src/app.erl:3:5: syntax error before: ')'"),
  // clojure: clojure/clojure:src/clj/clojure/main.clj (ex-str :read-source 'Syntax error reading source at (%s).')
  sourced('clojure-read-syntax', 'Syntax Error', "clojure", /^Syntax error reading source at \(/, "Syntax error reading source at (app/core.clj:3:5)."),
  // r: wch/r-source:src/main/gram.y / source.c (parse error 'unexpected %s' prefixed with file:line:col)
  sourced('r-parse-error', 'Syntax Error', "r", /^Error in (?:parse|source|sys\.source)\(.*\) ?: ?\S+:\d+:\d+: unexpected /, "Error in source(\"x.R\") : x.R:3:5: unexpected '}'"),
  // julia: JuliaLang/JuliaSyntax.jl:src/parser_api.jl (ParseError show: 'ParseError:')
  sourced('julia-parse-error', 'Syntax Error', "julia", /^ERROR: (?:LoadError: )?ParseError:/, "ERROR: LoadError: ParseError:"),
  // zig: ziglang/zig:lib/std/zig/Ast.zig (renderError: "expected ';' after statement", "expected '{s}', found '{s}'")
  sourced('zig-parse-error', 'Syntax Error', "zig", /^\S+\.zig:\d+:\d+: error: expected (?!type ')\S.*/, "src/main.zig:3:5: error: expected ';' after statement"),
  // nim: nim-lang/Nim:compiler/parser.nim & lexer.nim (errInvalidIndentation 'invalid indentation', 'expression expected, but found')
  sourced('nim-parse-error', 'Syntax Error', "nim", /^\S+\.nim\(\d+, \d+\) Error: (?:invalid indentation|expression expected, but found|expected: |';' expected|'\)' expected)/, "/w/src/app.nim(3, 5) Error: invalid indentation"),
  // sass: sass/dart-sass:lib/src/parse/parser.dart & stylesheet.dart (expectChar 'expected "$char".', 'Expected expression.', 'Expected identifier.'); webpack sass-loader prefixes 'SassError: '
  sourced('sass-parse-error', 'Syntax Error', "sass", /^(?:\[sass\] |SassError: |Error: )(?:expected \"[^\"]+\"\.|Expected (?:expression|identifier|newline|selector)\.|unmatched \"[^\"]+\"\.)$/, "Error: expected \";\"."),
];
