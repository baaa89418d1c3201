import { sourced } from './sourced.js';

/** Documentation builds, docstring linters, doctests and link checkers; each message as its tool's source (or documentation) words it, which the comment names. */
export const SOURCED_DOC_RULES = [
  // vitepress: vuejs/vitepress:src/node/plugin.ts & src/node/markdownToVue.ts ('(!) Found dead link ${url} in file ${file}', '[vitepress] ${n} dead link(s) found.')
  sourced('vitepress-dead-links', 'Doc/Docstring', "vitepress", /^\[vitepress\] \d+ dead link\(s\) found\.|^\(!\) Found dead link \S+ in file \S+/, "[vitepress] 1 dead link(s) found."),
  // mkdocs: mkdocs/mkdocs:mkdocs/commands/build.py (raise Abort('Aborted with a BuildError!')); mkdocstrings/mkdocstrings:src/mkdocstrings/_internal/handlers/base.py ("Could not collect '{identifier}'")
  sourced('mkdocs-build-error', 'Doc/Docstring', "mkdocs", /^\s*Aborted with a BuildError!$|^ERROR\s+-\s+(?:mkdocstrings: \S+ could not be found|Could not collect '[^']+')/, "Aborted with a BuildError!"),
  // hugo: gohugoio/hugo:commands/hugobuilder.go (fmt.Errorf("error building site: %w", err))
  sourced('hugo-build-error', 'Doc/Docstring', "hugo", /^Error: [Ee]rror building site: /, "Error: error building site: render: failed to render pages: render of \"page\" failed: \"/w/layouts/_default/single.html:12:5\": execute of template failed"),
  // jekyll: jekyll/jekyll:lib/jekyll/renderer.rb ('Liquid Exception: #{e.message} in #{path}'), lib/jekyll/renderer.rb/convertible.rb ('Conversion error: #{converter.class} encountered an error while converting')
  sourced('jekyll-render-error', 'Doc/Docstring', "jekyll", /^\s*Liquid Exception: (?!.*Psych::SyntaxError)|^\s*Conversion error: Jekyll::Converters::\w+ encountered an error while converting /, "  Liquid Exception: undefined method `x' for nil:NilClass in _layouts/default.html"),
  // typedoc: TypeStrong/typedoc:src/lib/internationalization/locales/en.cts (unable_to_find_any_entry_points, entry_point_0_did_not_exist)
  sourced('typedoc-entry-points', 'Doc/Docstring', "typedoc", /^\[error\] (?:Unable to find any entry points|The entry point \S+ does not exist|No entry points were provided)/, "[error] Unable to find any entry points. See previous warnings."),
  // rustdoc: rust-lang/rust:src/librustdoc/doctest.rs (test name '{path} - {item} (line {line})')
  sourced('rust-doctest-failed', 'Doc/Docstring', "rustdoc", /^test \S+\.rs - .+ \(line \d+\)(?: - compile(?: fail)?)? \.\.\. FAILED$/, "test src/lib.rs - parser::parse (line 42) ... FAILED"),
  // pytest: pytest-dev/pytest:src/_pytest/doctest.py (DoctestItem.reportinfo '[doctest] %s'; repr_failure 'UNEXPECTED EXCEPTION: ')
  sourced('pytest-doctest-failure', 'Doc/Docstring', "pytest", /^_{3,} \[doctest\] \S+ _{3,}$|^UNEXPECTED EXCEPTION: \w+/, "___________________________ [doctest] app.core.add ____________________________"),
  // lychee: lycheeverse/lychee:lychee-lib/src/types/status.rs & error.rs ('Rejected status code (this depends on your "accept" configuration)')
  sourced('lychee-rejected-status', 'Doc/Docstring', "lychee", /^\s*(?:\* )?\[[45]\d\d\] <?https?:\/\/[^\s>]+>? \| (?:Rejected status code|Failed: )/, "[404] https://example.com/x | Rejected status code (this depends on your \"accept\" configuration): Not Found"),
  // lychee: lycheeverse/lychee:lychee-bin/src/formatters/stats/markdown.rs (the Markdown summary lychee-action writes to the job summary and to an issue: '| 🚫 Errors | n |')
  sourced('lychee-markdown-errors', 'Doc/Docstring', "lychee", /^\|\s*\uD83D\uDEAB Errors\s*\|\s*[1-9]\d*\s*\|$/, "| 🚫 Errors     | 4     |"),
  // linkinator: JustinBeckwith/linkinator:src/cli.ts ('ERROR: Detected ${n} broken links.')
  sourced('linkinator-broken-links', 'Doc/Docstring', "linkinator", /^ERROR: Detected \d+ broken links?\./, "ERROR: Detected 3 broken links. Scanned 120 links in 2.1 seconds."),
  // dokka: Kotlin/dokka:dokka-subprojects/core/src/main/kotlin/org/jetbrains/dokka/DokkaGenerator.kt (reportAfterRendering: 'Failed with warningCount=... and errorCount=...')
  sourced('dokka-fail-on-warning', 'Doc/Docstring', "dokka", /Failed with warningCount=\d+ and errorCount=\d+/, "org.jetbrains.dokka.DokkaException: Failed with warningCount=2 and errorCount=0"),
  // pydoclint: jsh9/pydoclint:pydoclint/utils/violation.py (DOC1xx-6xx codes; main.py prints '    {line}: {code}: {msg}' under the file name; flake8 plugin 'path:l:c: DOCxxx')
  sourced('pydoclint-violation', 'Doc/Docstring', "pydoclint", /^\S+\.py:\d+:\d+: DOC\d{3} |^\s+\d+: DOC\d{3}: /, "    12: DOC101: Function `add`: Docstring contains fewer arguments than in function signature."),
  // sphinx: sphinx-doc/sphinx:sphinx/_cli/util/errors.py / sphinx/cmd/build.py handle_exception (prints f'{exception.category}:'; categories 'Sphinx error', 'Extension error', 'Theme error', 'Builder error')
  sourced('sphinx-error-banner', 'Doc/Docstring', "sphinx", /^(?:Sphinx|Extension|Theme|Builder|Document) error(?: \([\w.]+\))?:$/, "Extension error:"),
  // mdbook: rust-lang/mdBook:src/utils/mod.rs (log_backtrace 'Error: {}'), src/book/mod.rs ('Rendering failed', 'Renderer exited with non-zero return code.')
  sourced('mdbook-render-failed', 'Doc/Docstring', "mdbook", /\[ERROR\] \(mdbook(?:::\w+)*\): (?:Error: Rendering failed|Renderer exited with non-zero return code)/, "2024-01-01 12:00:00 [ERROR] (mdbook::utils): Error: Rendering failed"),
  // javadoc: openjdk/jdk:src/jdk.javadoc/share/classes/jdk/javadoc/internal/doclint/resources/doclint.properties (dc.tag.heading.sequence, dc.missing.param 'no @param for {0}', dc.tag.end.unexpected, dc.tag.self.closing, dc.element.not.closed, dc.param.name.not.found)
  sourced('javadoc-doclint-error', 'Doc/Docstring', "javadoc", /\.java:\d+: error: (?:heading used out of sequence|no (?:@param|@return|@throws) for|unexpected end tag: |self-closing element not allowed|element not closed: |no summary or caption for table|@param name not found|exception not thrown|unknown entity|malformed: )/, "src/main/java/com/acme/App.java:12: error: heading used out of sequence: <H3>, compared to implicit preceding heading: <H1>"),
  // doc8: PyCQA/doc8:src/doc8/main.py (prints '%s:%s: %s %s' % (filename, line_num, code, message); checks D000-D005)
  sourced('doc8-violation', 'Doc/Docstring', "doc8", /^\S+\.(?:rst|txt|md):\d+: D00\d /, "docs/index.rst:12: D001 Line too long"),
  // rst-lint: twolfson/restructuredtext-lint:restructuredtext_lint/cli.py (default format '{type} {source}:{line} {message}')
  sourced('restructuredtext-lint-error', 'Doc/Docstring', "rst-lint", /^(?:ERROR|SEVERE|WARNING) \S+\.rst:\d+ \S/, "ERROR docs/index.rst:12 Unexpected indentation."),
  // sphinx: sphinx-doc/sphinx:sphinx/ext/doctest.py (DocTestBuilder.finish: 'Doctest summary' ... '%5d failure%s in tests')
  sourced('sphinx-doctest-summary', 'Doc/Docstring', "sphinx", /^\s*[1-9]\d* failures? in (?:tests|setup code|cleanup code)$/, "    1 failure in tests"),
  // exunit: elixir-lang/elixir:lib/ex_unit/lib/ex_unit/doc_test.ex (test name 'doctest #{inspect(m)}.#{f}/#{a} (#{n})') with ExUnit's '  N) test' failure header
  sourced('elixir-doctest-failure', 'Doc/Docstring', "exunit", /^\s+\d+\) doctest \S+ \(\d+\) \(\S+\)$/, "  1) doctest Foo.bar/1 (1) (FooTest)"),
];
