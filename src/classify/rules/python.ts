import { CMD } from './commands.js';
import { fileLineFinding, type ParsedFinding, type Rule, type RuleState } from './rule.js';

const headerFinding =
  (message: number) =>
  (m: RegExpExecArray, state: RuleState): ParsedFinding | undefined => {
    const header = state.header;
    const text = m[message];
    if (header === undefined || text === undefined) return undefined;
    return { path: header.path, line: header.line ?? 1, message: text.trim() };
  };

const wholeFile =
  (path: number, message: string) =>
  (m: RegExpExecArray): ParsedFinding | undefined => {
    const file = m[path];
    return file === undefined ? undefined : { path: file.trim(), line: 1, message };
  };

const PY_FILE_HEADER = /^(?:E\s+)?\s*File "([^"]+)", line (\d+)|^(\S+\.py):(\d+): in /;

/** Python tools: pytest/unittest, flake8, ruff, pylint, black, isort, mypy, pyright, pydocstyle, pip. */
export const PYTHON_RULES: Rule[] = [
  // Syntax errors, whoever reports them.
  {
    id: 'python-syntax-error',
    type: 'Syntax Error',
    tool: 'python',
    linePattern: /^(?:E\s+)?(?:SyntaxError|IndentationError|TabError): (.*)$/,
    headerPattern: PY_FILE_HEADER,
    findingParser: headerFinding(1),
    context: { before: 4 },
    example: { command: 'python -m pytest', lines: ['  File "/w/app/a.py", line 3', '    def f(:', '          ^', 'SyntaxError: invalid syntax'] },
  },
  {
    id: 'flake8-e999',
    type: 'Syntax Error',
    tool: 'flake8',
    linePattern: /^(\S+?):(\d+):(\d+): (E999) (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'flake8 .', lines: ['./app/a.py:3:11: E999 SyntaxError: invalid syntax'] },
  },
  {
    id: 'ruff-syntax-error',
    type: 'Syntax Error',
    tool: 'ruff',
    commandPattern: CMD.ruff,
    linePattern: /^(\S+?):(\d+):(\d+): (SyntaxError|E999):? (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 5 }),
    example: { command: 'ruff check .', lines: ['app/a.py:3:7: SyntaxError: Expected a parameter name'] },
  },
  {
    id: 'black-cannot-parse',
    type: 'Syntax Error',
    tool: 'black',
    linePattern: /^error: cannot format (\S+): Cannot parse(?: for target version [^:]+)?: (\d+):(\d+): (.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'black --check .', lines: ['error: cannot format app/a.py: Cannot parse: 3:6: def f(:'] },
  },
  {
    id: 'mypy-syntax',
    type: 'Syntax Error',
    tool: 'mypy',
    commandPattern: CMD.mypy,
    linePattern: /^(\S+?):(\d+):(?:(\d+):)? error: (.*)\[syntax\]$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, message: 4 }),
    example: { command: 'mypy app', lines: ['app/a.py:3: error: invalid syntax  [syntax]'] },
  },
  {
    id: 'pylint-syntax',
    type: 'Syntax Error',
    tool: 'pylint',
    linePattern: /^(\S+?):(\d+):(\d+): (E0001): (.*) \(syntax-error\)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'pylint app', lines: ["app/a.py:3:7: E0001: Parsing failed: 'invalid syntax (a, line 3)' (syntax-error)"] },
  },
  // Imports of modules that are not installed.
  {
    id: 'python-module-not-found',
    type: 'Dependency Issues',
    tool: 'python',
    linePattern: /^(?:E\s+)?(?:ModuleNotFoundError: No module named |ImportError: cannot import name |ImportError: No module named )(.*)$/,
    headerPattern: PY_FILE_HEADER,
    findingParser: headerFinding(1),
    context: { before: 2 },
    example: { command: 'python -m pytest', lines: ['app/client.py:1: in <module>', '    import requests', "E   ModuleNotFoundError: No module named 'requests'"] },
  },
  // Resolver conflicts.
  {
    id: 'pip-resolution-impossible',
    type: 'Dependency Issues',
    tool: 'pip',
    linePattern: /^ERROR: (?:ResolutionImpossible|Cannot install .* because these package versions have conflicting dependencies)/,
    context: { before: 6 },
    example: { command: 'pip install -r requirements.txt', lines: ['ERROR: Cannot install alpha==1.0 and beta==2.0 because these package versions have conflicting dependencies.'] },
  },
  {
    id: 'pip-check-conflict',
    type: 'Dependency Issues',
    tool: 'pip',
    linePattern: /^(\S+) \S+ (?:has requirement .*, but you have|requires .*, but you have|has requirement .*, which is not installed)/,
    example: { command: 'pip check', lines: ['alpha 1.0 has requirement beta==1.0, but you have beta 2.0.'] },
  },
  {
    id: 'uv-poetry-conda-resolver',
    type: 'Dependency Issues',
    tool: 'resolver',
    linePattern: /No solution found when resolving dependencies|SolverProblemError|version solving failed|UnsatisfiableError|LibMambaUnsatisfiableError|Found conflicts!/,
    context: { after: 4 },
    example: { command: 'uv sync', lines: ['  × No solution found when resolving dependencies:'] },
  },
  // Installation failures.
  {
    id: 'pip-no-matching-distribution',
    type: 'Package Installation Error',
    tool: 'pip',
    linePattern: /^ERROR: (?:No matching distribution found for|Could not find a version that satisfies the requirement) (.*)$/,
    example: { command: 'pip install nonexistent-pkg==1.0', lines: ['ERROR: No matching distribution found for nonexistent-pkg==1.0'] },
  },
  {
    id: 'pip-build-failed',
    type: 'Package Installation Error',
    tool: 'pip',
    linePattern: /error: subprocess-exited-with-error|Failed building wheel for|Failed to build installable wheels|Could not build wheels for|error: metadata-generation-failed|error: legacy-install-failure|did not run successfully\.|THESE PACKAGES DO NOT MATCH THE HASHES|^ERROR: Failed to build /,
    context: { after: 2 },
    example: { command: 'pip install ./pkg', lines: ['  error: subprocess-exited-with-error'] },
  },
  {
    id: 'pip-invalid-requirement',
    type: 'Package Installation Error',
    tool: 'pip',
    linePattern: /^ERROR: Invalid requirement: /,
    example: { command: 'pip install -r requirements.txt', lines: ["ERROR: Invalid requirement: 'foo=1.0' (from line 1 of requirements.txt)"] },
  },
  {
    id: 'pip-unsupported-wheel',
    type: 'Package Installation Error',
    tool: 'pip',
    linePattern: /^ERROR: (\S+\.whl) is not a supported wheel on this platform/,
    example: { command: 'pip install dist/pkg-1.0-cp27-cp27m-win32.whl', lines: ['ERROR: gamma-1.0-cp27-cp27m-win32.whl is not a supported wheel on this platform.'] },
  },
  // Tests.
  {
    id: 'pytest-assert-location',
    type: 'Assertion Error',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^(\S+\.py):(\d+): (AssertionError)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, message: 3 }),
    example: { command: 'python -m pytest', lines: ['tests/test_calc.py:5: AssertionError'] },
  },
  {
    id: 'pytest-error-location',
    type: 'Runtime Error',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^(\S+\.py):(\d+): (\w+(?:\.\w+)*(?:Error|Exception|Exit|Interrupt))$/,
    findingParser: fileLineFinding({ path: 1, line: 2, message: 3 }),
    example: { command: 'python -m pytest', lines: ['app/calc.py:9: ZeroDivisionError'] },
  },
  {
    id: 'pytest-assertion',
    type: 'Assertion Error',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^E\s+(?:AssertionError\b|assert )/,
    context: { after: 2 },
    example: { command: 'python -m pytest', lines: ['E       assert 4 == 5'] },
  },
  {
    id: 'pytest-exception',
    type: 'Runtime Error',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^E\s+(\w+(?:\.\w+)*(?:Error|Exception|Exit|Interrupt|Warning))(?::|$)/,
    example: { command: 'python -m pytest', lines: ['E       ZeroDivisionError: division by zero'] },
  },
  {
    id: 'pytest-failed',
    type: 'Test Failure',
    tool: 'pytest',
    commandPattern: CMD.pytest,
    linePattern: /^FAILED (\S+)|^(\S+::\S+) FAILED\b|^=+ (?:.*, )?\d+ failed\b|^ERROR (\S+::\S+)/,
    example: { command: 'python -m pytest', lines: ['FAILED tests/test_calc.py::test_add - assert 4 == 5'] },
  },
  {
    id: 'unittest-assertion',
    type: 'Assertion Error',
    tool: 'unittest',
    commandPattern: CMD.pytest,
    linePattern: /^AssertionError\b/,
    context: { before: 3 },
    example: { command: 'python -m unittest', lines: ['AssertionError: 4 != 5'] },
  },
  {
    id: 'unittest-failed',
    type: 'Test Failure',
    tool: 'unittest',
    commandPattern: CMD.pytest,
    linePattern: /^(?:FAIL|ERROR): \w+ \(|^FAILED \((?:failures|errors)=\d+/,
    example: { command: 'python -m unittest', lines: ['FAIL: test_add (tests.test_calc.CalcTest.test_add)'] },
  },
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
    linePattern: /^(\S+?):(\d+):(\d+): ([A-Z]{1,4}\d{1,4}) (?:\[\*\] )?(.*)$/,
    findingParser: fileLineFinding({ path: 1, line: 2, column: 3, code: 4, message: 5 }),
    example: { command: 'ruff check .', lines: ['app/a.py:1:8: F401 [*] `os` imported but unused'] },
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
    example: { command: 'ruff format --check .', lines: ['Would reformat: app/a.py'] },
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
    findingParser: (m, state) => headerFinding(2)(m, state) ?? undefined,
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
    linePattern: /^Warning, treated as error:|build finished with problems|^Aborted with \d+ warnings? in strict mode/,
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
    linePattern: /^- hook id: (?:black|isort|ruff-format|prettier|autopep8|yapf|trailing-whitespace|end-of-file-fixer|mixed-line-ending|pyupgrade|clang-format|rustfmt|gofmt|blacken-docs|docformatter|add-trailing-comma|pretty-format-\S+)$/,
    context: { before: 1, after: 4 },
    example: { command: 'pre-commit run --all-files', lines: ['black....................................................................Failed', '- hook id: black'] },
  },
  {
    id: 'pre-commit-type-hook',
    type: 'Type Checking',
    tool: 'pre-commit',
    linePattern: /^- hook id: (?:mypy|pyright|pytype)$/,
    context: { before: 1, after: 4 },
    example: { command: 'pre-commit run --all-files', lines: ['mypy.....................................................................Failed', '- hook id: mypy'] },
  },
  {
    id: 'pre-commit-doc-hook',
    type: 'Doc/Docstring',
    tool: 'pre-commit',
    linePattern: /^- hook id: (?:pydocstyle|darglint|interrogate|numpydoc-validation)$/,
    context: { before: 1, after: 4 },
    example: { command: 'pre-commit run --all-files', lines: ['pydocstyle...............................................................Failed', '- hook id: pydocstyle'] },
  },
  {
    id: 'pre-commit-config-hook',
    type: 'Configuration Error',
    tool: 'pre-commit',
    linePattern: /^- hook id: (?:check-yaml|check-toml|check-json|check-github-workflows|validate-pyproject)$/,
    context: { before: 1, after: 4 },
    example: { command: 'pre-commit run --all-files', lines: ['check yaml...............................................................Failed', '- hook id: check-yaml'] },
  },
  {
    id: 'pre-commit-lint-hook',
    type: 'Code Linting',
    tool: 'pre-commit',
    linePattern: /^- hook id: (?:flake8|ruff|ruff-check|pylint|eslint|codespell|bandit|pycln|autoflake|check-ast|debug-statements|check-merge-conflict|shellcheck|yamllint)$/,
    context: { before: 1, after: 4 },
    example: { command: 'pre-commit run --all-files', lines: ['flake8...................................................................Failed', '- hook id: flake8'] },
  },
];
