import { CMD } from './commands.js';
import { headerFinding, LOCATION_LINE, locationFinding, wholeFile } from './rule-helpers.js';
import { fileLineFinding, type Rule } from './rule.js';

/** Python linters, formatters, type checkers, docstring tools and pre-commit hooks. */
/**
 * How ruff's `full` output is read at its ` --> path:line:col` line: the code and message on the line before it, the
 * snippet after (shared with the output-only `ruff-full-without-command` rule).
 */
export const RUFF_FULL_READING = {
  previousPattern: /^([A-Z]{1,5}\d{1,4}) (?:\[\*\] )?(.*)$/,
  findingParser: locationFinding({ code: 1, message: 2 }),
  context: { before: 1, after: 3 },
} satisfies Partial<Rule>;

export const PYTHON_QUALITY_RULES: Rule[] = [
  // Linters.
  {
    id: 'docstring-codes',
    type: 'Doc/Docstring',
    tool: 'docstring-linter',
    linePattern: /^(\S+?\.py):(\d+):(\d+): (D\d{3}|DAR\d{3}) (?:\[\*\] )?(.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'ruff check .', lines: ['app/a.py:1:1: D100 Missing docstring in public module'] },
  },
  {
    id: 'ruff-full-docstring',
    type: 'Doc/Docstring',
    tool: 'ruff',
    commandPattern: CMD.ruff,
    // Ruff >= 0.12.9's default (`full`) output, as `ruff-full-violation` below.
    linePattern: LOCATION_LINE,
    previousPattern: /^(D\d{3}) (?:\[\*\] )?(.*)$/,
    findingParser: locationFinding({ code: 1, message: 2 }),
    context: { before: 1, after: 3 },
    example: { command: 'ruff check --select D .', lines: ['D100 Missing docstring in public module', ' --> app/a.py:1:1', '  |', '1 | import os', '  | ^'] },
  },
  {
    id: 'flake8-violation',
    type: 'Code Linting',
    tool: 'flake8',
    commandPattern: CMD.flake8,
    linePattern: /^(\S+?):(\d+):(\d+): ([A-Z]{1,3}\d{2,4}) (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'flake8 .', lines: ["./app/a.py:1:1: F401 'os' imported but unused"] },
  },
  {
    id: 'ruff-violation',
    type: 'Code Linting',
    tool: 'ruff',
    commandPattern: CMD.ruff,
    linePattern: /^(\S+?):(\d+):(\d+): ([A-Z]{1,5}\d{1,4}) (?:\[\*\] )?(.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    // `concise` output, and the header line of the `full` output up to ruff 0.12.8 (default since 0.5.0), whose
    // snippet lines (`  |`, `1 | import os`, `  |        ^^ F401`, `  = help: …`) no rule matches.
    example: { command: 'ruff check .', lines: ['app/a.py:1:8: F401 [*] `os` imported but unused'] },
  },
  {
    id: 'ruff-full-violation',
    type: 'Code Linting',
    tool: 'ruff',
    commandPattern: CMD.ruff,
    // Ruff >= 0.12.9's default (`full`) output, rustc-style: `CODE [*] message`, then ` --> path:line:col`, the
    // snippet and `help: …` (crates/ruff/tests/snapshots/lint__output_format_full.snap at tag 0.12.9; 0.16 adds
    // the fix's diff after `help:`). Codes run to five letters (ASYNC100).
    linePattern: LOCATION_LINE,
    ...RUFF_FULL_READING,
    example: {
      command: 'ruff check .',
      lines: ['F401 [*] `os` imported but unused', ' --> app/a.py:1:8', '  |', '1 | import os', '  |        ^^', '  |', 'help: Remove unused import: `os`'],
    },
  },
  {
    id: 'python-lint-line',
    type: 'Code Linting',
    tool: 'python-linter',
    linePattern: /^(\S+?\.py):(\d+):(\d+): ([A-Z]{1,3}\d{2,4}) (?:\[\*\] )?(.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'make lint', lines: ["app/core.py:1:1: F401 're' imported but unused"] },
  },
  {
    id: 'pylint-message',
    type: 'Code Linting',
    tool: 'pylint',
    linePattern: /^(\S+?):(\d+):(\d+): ([CRWEF]\d{4}): (.*) \([\w-]+\)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'pylint app', lines: ['app/a.py:1:0: C0114: Missing module docstring (missing-module-docstring)'] },
  },
  // Formatters.
  {
    id: 'black-would-reformat',
    type: 'Code Formatting',
    tool: 'black',
    linePattern: /^would reformat (\S.*)$/,
    findingParser: wholeFile(1, 'black would reformat this file'),
    example: { command: 'black --check .', lines: ['would reformat app/a.py'] },
  },
  {
    id: 'isort-incorrectly-sorted',
    type: 'Code Formatting',
    tool: 'isort',
    linePattern: /^ERROR: (\S.*?) Imports are incorrectly sorted/,
    findingParser: wholeFile(1, 'isort: imports are incorrectly sorted and/or formatted'),
    example: { command: 'isort --check-only .', lines: ['ERROR: /w/app/a.py Imports are incorrectly sorted and/or formatted.'] },
  },
  {
    id: 'ruff-would-reformat',
    type: 'Code Formatting',
    tool: 'ruff-format',
    linePattern: /^Would reformat: (\S.*)$/,
    findingParser: wholeFile(1, 'ruff format would reformat this file'),
    // `ruff format --check` up to 0.15.
    example: { command: 'ruff format --check .', lines: ['Would reformat: app/a.py'] },
  },
  {
    id: 'ruff-unformatted',
    type: 'Code Formatting',
    tool: 'ruff-format',
    commandPattern: CMD.ruff,
    // `ruff format --check --output-format concise` from 0.16.0 (cli__format__output_format_concise.snap).
    linePattern: /^(\S+?):\d+:\d+: unformatted: File would be reformatted$/,
    findingParser: wholeFile(1, 'ruff format would reformat this file'),
    example: { command: 'ruff format --check --output-format concise .', lines: ['app/a.py:1:1: unformatted: File would be reformatted'] },
  },
  {
    id: 'ruff-full-unformatted',
    type: 'Code Formatting',
    tool: 'ruff-format',
    commandPattern: CMD.ruff,
    // `ruff format --check` from 0.16.0 (#26960): `unformatted: File would be reformatted`, ` --> path:1:1`, a diff.
    linePattern: LOCATION_LINE,
    previousPattern: /^unformatted: File would be reformatted$/,
    findingParser: locationFinding('ruff format would reformat this file'),
    context: { before: 1 },
    example: { command: 'ruff format --check .', lines: ['unformatted: File would be reformatted', ' --> app/a.py:1:1', '  |', '  - x =  1', '1 + x = 1', '  |'] },
  },
  // Type checkers.
  {
    id: 'mypy-error',
    type: 'Type Checking',
    tool: 'mypy',
    commandPattern: CMD.mypy,
    linePattern: /^(\S+?\.pyi?):(\d+):(?:(\d+):)? error: (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'mypy app', lines: ['app/a.py:4: error: Incompatible return value type (got "str", expected "int")  [return-value]'] },
  },
  {
    id: 'mypy-summary',
    type: 'Type Checking',
    tool: 'mypy',
    linePattern: /^Found \d+ errors? in \d+ files? \(checked \d+/,
    example: { command: 'make typecheck', lines: ['Found 2 errors in 1 file (checked 3 source files)'] },
  },
  {
    id: 'pyright-error',
    type: 'Type Checking',
    tool: 'pyright',
    commandPattern: CMD.pyright,
    linePattern: /^\s+(\S.*?):(\d+):(\d+) - error: (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'pyright', lines: ['  /w/app/a.py:4:12 - error: Type "str" is not assignable to return type "int"'] },
  },
  {
    id: 'pyright-summary',
    type: 'Type Checking',
    tool: 'pyright',
    linePattern: /^[1-9]\d* errors?, \d+ warnings?, \d+ (?:informations|infos|notes)/,
    example: { command: 'make typecheck', lines: ['1 error, 0 warnings, 0 informations '] },
  },
  // Documentation.
  {
    id: 'pydocstyle-violation',
    type: 'Doc/Docstring',
    tool: 'pydocstyle',
    linePattern: /^\s+(D\d{3}): (.*)$/,
    headerPattern: /^(\S+\.py):(\d+) (?:in|at) /,
    findingParser: headerFinding(2),
    context: { before: 1 },
    example: { command: 'pydocstyle app', lines: ['app/a.py:1 at module level:', '        D100: Missing docstring in public module'] },
  },
  {
    id: 'darglint-violation',
    type: 'Doc/Docstring',
    tool: 'darglint',
    linePattern: /^(\S+?\.py):\S+:(\d+): (DAR\d{3}):? (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, code: 3, message: 4 }),
    example: { command: 'darglint app/a.py', lines: ['app/a.py:add:3: DAR101: Missing parameter(s) in Docstring: - b'] },
  },
  {
    id: 'sphinx-warning-as-error',
    type: 'Doc/Docstring',
    tool: 'sphinx',
    // `Exception occurred:` is Sphinx's banner when an extension crashes the build (a traceback follows).
    linePattern: /^Warning, treated as error:|build finished with problems|^Aborted with \d+ warnings? in strict mode|^Exception occurred:$|The full traceback has been saved in \S*sphinx-err-/,
    context: { after: 1 },
    example: { command: 'sphinx-build -W docs docs/_build', lines: ['Warning, treated as error:'] },
  },
  {
    id: 'sphinx-warning',
    type: 'Doc/Docstring',
    tool: 'sphinx',
    commandPattern: CMD.sphinx,
    linePattern: /^(\S+?):(\d+): (?:WARNING|ERROR): (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, message: 3 }),
    example: { command: 'sphinx-build -W docs docs/_build', lines: ['/w/docs/index.rst:5: WARNING: Title underline too short.'] },
  },
  {
    // Sphinx/docutils name the document (or `module.py:docstring of name`) before the line: that shape is a
    // documentation diagnostic whatever command ran the build (`make html`, tox, a docs action).
    id: 'docutils-diagnostic',
    type: 'Doc/Docstring',
    tool: 'sphinx',
    // A `.py` path counts only with `:docstring of` (the finding then points at the module).
    linePattern: /^(\S+?\.(?:rst|md|txt)|\S+?\.py(?=:docstring of ))(:docstring of [\w.]+)?:(\d+): (?:(?:WARNING|ERROR|SEVERE|CRITICAL): |\((?:WARNING|ERROR|SEVERE)\/\d\) )(.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 3, message: 4 }),
    example: { command: 'tox -e docs', lines: ['/w/docs/usage.rst:198: ERROR: Unexpected indentation.'] },
  },
  {
    id: 'interrogate-failed',
    type: 'Doc/Docstring',
    tool: 'interrogate',
    linePattern: /^RESULT: FAILED \(minimum: /,
    example: { command: 'interrogate -f 80 app', lines: ['RESULT: FAILED (minimum: 80.0%, actual: 50.0%)'] },
  },
  // pre-commit: the hook id names the tool.
  {
    id: 'pre-commit-format-hook',
    type: 'Code Formatting',
    tool: 'pre-commit',
    linePattern: /^(?:- hook id|hookid): (?:black|isort|ruff-format|prettier|autopep8|yapf|trailing-whitespace|end-of-file-fixer|mixed-line-ending|pyupgrade|clang-format|rustfmt|gofmt|blacken-docs|docformatter|add-trailing-comma|pretty-format-\S+)$/,
    context: { before: 1, after: 4 },
    example: { command: 'pre-commit run --all-files', lines: ['black....................................................................Failed', '- hook id: black'] },
  },
  {
    id: 'pre-commit-type-hook',
    type: 'Type Checking',
    tool: 'pre-commit',
    linePattern: /^(?:- hook id|hookid): (?:mypy|pyright|pytype)$/,
    context: { before: 1, after: 4 },
    example: { command: 'pre-commit run --all-files', lines: ['mypy.....................................................................Failed', '- hook id: mypy'] },
  },
  {
    id: 'pre-commit-doc-hook',
    type: 'Doc/Docstring',
    tool: 'pre-commit',
    linePattern: /^(?:- hook id|hookid): (?:pydocstyle|darglint|interrogate|numpydoc-validation)$/,
    context: { before: 1, after: 4 },
    example: { command: 'pre-commit run --all-files', lines: ['pydocstyle...............................................................Failed', '- hook id: pydocstyle'] },
  },
  {
    id: 'pre-commit-config-hook',
    type: 'Configuration Error',
    tool: 'pre-commit',
    linePattern: /^(?:- hook id|hookid): (?:check-yaml|check-toml|check-json|check-github-workflows|validate-pyproject)$/,
    context: { before: 1, after: 4 },
    example: { command: 'pre-commit run --all-files', lines: ['check yaml...............................................................Failed', '- hook id: check-yaml'] },
  },
  {
    id: 'pre-commit-lint-hook',
    type: 'Code Linting',
    tool: 'pre-commit',
    linePattern: /^(?:- hook id|hookid): (?:flake8|ruff|ruff-check|pylint|eslint|codespell|bandit|pycln|autoflake|check-ast|debug-statements|check-merge-conflict|shellcheck|yamllint)$/,
    context: { before: 1, after: 4 },
    example: { command: 'pre-commit run --all-files', lines: ['flake8...................................................................Failed', '- hook id: flake8'] },
  },
];
